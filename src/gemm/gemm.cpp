// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// tessera::gemm: validation, kernel selection, launch.
#include <cuda_runtime.h>

#include <string>

#include "gemm/registry.hpp"
#include "tessera/gemm/api.hpp"

namespace tessera {

GemmKernelList gemm_kernels() {
  auto const& list = detail::registered_gemm_kernels();
  return {list.data(), list.size()};
}

const GemmKernel* find_gemm_kernel(std::string_view name) {
  for (const GemmKernel& k : detail::registered_gemm_kernels())
    if (k.info.name == name) return &k;
  return nullptr;
}

int current_sm(std::string* why) {
  int device = 0;
  cudaError_t err = cudaGetDevice(&device);
  int major = 0, minor = 0;
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
  if (err == cudaSuccess) err = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
  if (err != cudaSuccess) {
    if (why != nullptr) *why = cudaGetErrorString(err);
    cudaGetLastError();  // the failure is reported through `why`, not left sticky
    return 0;
  }
  return major * 10 + minor;
}

Status select_gemm_kernel(const GemmArgs& args, int sm, const GemmOptions& options,
                          const GemmKernel** out) {
  *out = nullptr;
  if (!options.kernel.empty()) {
    const GemmKernel* k = find_gemm_kernel(options.kernel);
    if (k == nullptr) {
      std::string names;
      for (const GemmKernel& r : detail::registered_gemm_kernels())
        names += (names.empty() ? "" : ", ") + std::string(r.info.name);
      return {StatusCode::unknown_kernel, "tessera::gemm: no kernel named '" +
                                              std::string(options.kernel) +
                                              "' (registered: " + names + ")"};
    }
    if (Status s = validate_kernel_architecture(k->info, sm); !s.ok()) return s;
    if (!k->can_implement(args))
      return {StatusCode::cannot_implement,
              "tessera::gemm: kernel " + std::string(k->info.name) +
                  " cannot implement this problem (" + std::string(k->info.notes) + ")"};
    *out = k;
    return {};
  }
  int best_rank = -1;
  for (const GemmKernel& k : detail::registered_gemm_kernels()) {
    if (!validate_kernel_architecture(k.info, sm).ok() || !k.can_implement(args)) continue;
    int const rank = detail::heuristic_rank(k, args, sm);
    if (rank > best_rank) {
      best_rank = rank;
      *out = &k;
    }
  }
  if (*out == nullptr)
    return {StatusCode::cannot_implement,
            "tessera::gemm: no registered kernel implements this problem on sm_" +
                std::to_string(sm)};
  return {};
}

Status gemm(const GemmArgs& args, gemm_stream_t stream, const GemmOptions& options) {
  if (Status s = validate_arguments(args); !s.ok()) return s;
  if (args.m == 0 || args.n == 0 || args.batch_count == 0) return {};
  std::string why;
  int const sm = current_sm(&why);
  if (Status s = validate_device(sm, why); !s.ok()) return s;
  const GemmKernel* kernel = nullptr;
  if (Status s = select_gemm_kernel(args, sm, options, &kernel); !s.ok()) return s;
  return kernel->launch(args, stream);
}

}  // namespace tessera
