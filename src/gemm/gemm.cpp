// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// tessera::gemm: validation, kernel selection, launch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gemm/registry.hpp"
#include "gemm/repack.hpp"
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
    if (Status s = validate_kernel_device(*k, sm); !s.ok()) return s;
    if (!k->can_implement(args))
      return {StatusCode::cannot_implement,
              "tessera::gemm: kernel " + std::string(k->info.name) +
                  " cannot implement this problem (" + std::string(k->info.notes) + ")"};
    *out = k;
    return {};
  }
  int best_rank = -1;
  bool any_runs_here = false;
  std::string why_none;  // the reasons when no kernel can run on this device at all
  for (const GemmKernel& k : detail::registered_gemm_kernels()) {
    if (Status s = validate_kernel_device(k, sm); !s.ok()) {
      std::string_view const prefix = "tessera::gemm: ";
      std::string_view m = s.message;
      if (m.substr(0, prefix.size()) == prefix) m.remove_prefix(prefix.size());
      why_none += (why_none.empty() ? "" : "; ") + std::string(m);
      continue;
    }
    any_runs_here = true;
    if (!k.can_implement(args)) continue;
    int const rank = detail::heuristic_rank(k, args, sm);
    if (rank > best_rank) {
      best_rank = rank;
      *out = &k;
    }
  }
  if (!any_runs_here)
    return {StatusCode::unsupported_architecture,
            "tessera::gemm: no registered kernel runs on sm_" + std::to_string(sm) + " (" + why_none + ")"};
  if (*out == nullptr)
    return {StatusCode::cannot_implement,
            "tessera::gemm: no registered kernel implements this problem on sm_" +
                std::to_string(sm)};
  return {};
}

std::size_t gemm_workspace_bytes(const GemmArgs& args) {
  if (args.m <= 0 || args.n <= 0 || args.k <= 0 || args.batch_count <= 0) return 0;
  std::size_t bytes = 0;
  using detail::RepackTarget;
  for (RepackTarget ta : {RepackTarget::same_order, RepackTarget::k_major, RepackTarget::mn_major})
    for (RepackTarget tb : {RepackTarget::same_order, RepackTarget::k_major, RepackTarget::mn_major})
      bytes = std::max(bytes, detail::plan_repack(args, ta, tb).bytes);
  return bytes;
}

namespace {

using detail::RepackPlan;
using detail::RepackTarget;

// A repack plan and the kernel that would run on its copies.
struct Choice {
  RepackPlan plan;
  const GemmKernel* kernel = nullptr;
  int rank = -1;
};

// Copies of operands that the kernels could read in place (to reach a
// faster kernel or a faster form of one) are made only for problems of at
// least kMinFlopForLayoutCopy flop and at least kMinFlopPerCopiedByte flop
// per copied byte.
// NOTE: 2^33 flop (e.g. 2048^3) takes ~15 us at 600 TFLOP/s; copying a
// 2048^2 bf16 operand moves 16 MB (~5 us at 3-4 TB/s).
// NOTE: the copy reads and writes the operand once more; the kernel then
// reads it again. Run 23 (H100, 2026-11-22, bf16, interleaved ratios):
// 128x8192x8192 nt/tt (B copied: 126 flop per copied byte) ran at 0.25x
// cuBLAS after the copy and 64x28672x4096 nt/tt (64 flop/B) at 0.25x, where
// mma.sync reads them in place at about half of cuBLAS; 4096^3 nn/nt (2048
// flop/B) ran at 0.67-0.80x after the copy. A copy pays when the flop per
// copied byte exceed about twice the Hopper kernel's flop rate over the copy
// bandwidth (~2 x 700 / 3 TB/s ~ 470); for the FFMA kernels, which gain ~8%
// from the copy at ~50 TFLOP/s, 2 x 50e12 / (2.8e12 x 0.08) ~ 450.
constexpr double kMinFlopForLayoutCopy = 8589934592.0;
constexpr double kMinFlopPerCopiedByte = 512.0;
// The K-major copy of one of two M/N-major tf32 operands on Hopper (the
// only aligned case that reaches it: 16-bit inputs are read in any order,
// and one M/N-major tf32 operand through registers) trades a pass over the
// smaller operand for the TMA kernel instead of mma.sync, which runs tf32 at
// 0.40-0.47x of it (run 189, H100, 1000^3 and 2048^3): it pays from about
// 2 x 360 TFLOP/s / (1.5 x 3 TB/s) = 160 flop per copied byte and from
// problems of a few microseconds.
constexpr double kMinFlopForTf32Copy = 1073741824.0;
constexpr double kMinFlopPerTf32CopiedByte = 256.0;
// A D of at least this many bytes written through the transposed, direct
// epilogue costs more than copying a tf32 operand (choose_repack).
// NOTE: runs 198-199 (H100, tf32 tt, D row-major, in place -> B copied):
// 2048x2048x1024 (16 MB of D) 0.88 -> 0.86, 2048x2048x512 1.15 -> 1.14;
// 3072x3072x1024 (36 MB) 0.80 -> 0.88, 4096x4096x1024 (64 MB) 0.85 -> 1.00,
// 8192x8192x1024 0.82 -> 1.12, 16384x8192x1024 0.82 -> 1.15.
constexpr double kMinTransposedWriteBytes = 33554432.0;

double problem_flop(const GemmArgs& args) {
  return 2.0 * double(args.m) * double(args.n) * double(args.k) * double(args.batch_count);
}

// The kernel the heuristic picks once `rp`'s copies replace A and B (null if
// none); *g gets those arguments. Kernels never read the copies while
// choosing: any 16-byte aligned address stands in for the workspace.
const GemmKernel* kernel_on_copies(const GemmArgs& args, const RepackPlan& rp, int sm, const GemmOptions& options,
                                   GemmArgs* g) {
  alignas(16) static const char probe[16] = {};
  *g = detail::packed_args(args, rp, const_cast<char*>(probe));
  const GemmKernel* k = nullptr;
  return select_gemm_kernel(*g, sm, options, &k).ok() ? k : nullptr;
}

// The FFMA kernels (simt_tiled_sgemm, simt_sgemm) read M/N-contiguous
// operands with 16-byte cp.async and K-contiguous ones with 4-byte
// transposing copies, which cost them 5-10% (run 18, H100: 8192^3 nt 0.949x
// cuBLAS, tt 0.927x, tn 0.872x). For a large enough f32 problem each
// K-contiguous operand is copied M/N-major on its own (a skinny GEMM copies
// its small operand, not the large one it streams once), misaligned
// M/N-contiguous ones padded, so the kernel runs its nt form.
Choice choose_simt_repack(const GemmArgs& args, int sm, const GemmOptions& options, const GemmKernel* unpacked,
                          bool a_km, bool b_km, bool bad_a, bool bad_b) {
  if (!a_km && !b_km) return {};
  double const flop = problem_flop(args);
  if (flop < kMinFlopForLayoutCopy) return {};
  RepackPlan const mn = detail::plan_repack(args, RepackTarget::mn_major, RepackTarget::mn_major);
  auto target = [&](bool km, bool bad, const detail::PackedOperand& copy) {
    if (km && flop >= kMinFlopPerCopiedByte * double(copy.bytes)) return RepackTarget::mn_major;
    return bad ? RepackTarget::same_order : RepackTarget::keep;
  };
  RepackPlan const rp = detail::plan_repack(args, target(a_km, bad_a, mn.a), target(b_km, bad_b, mn.b));
  if (!(rp.a.active && a_km) && !(rp.b.active && b_km)) return {};
  GemmArgs g;
  const GemmKernel* k = kernel_on_copies(args, rp, sm, options, &g);
  if (k != unpacked) return {};
  return {rp, k, detail::heuristic_rank(*k, g, sm)};
}

// The candidate plans when A or B cannot be read by the 16-byte paths, in
// order of preference at equal rank (least copying first):
//  1. copy only the offending operands, keeping their order;
//  2. copy them K-major (what the TMA kernel reads);
//  3. copy every operand that is not already aligned and K-major, K-major.
// The plan whose kernel ranks highest wins; an explicitly named kernel (that
// cannot run the operands as they are) takes the first plan it can implement.
// Before them: the FFMA kernels' M/N-major copies (choose_simt_repack).
Choice choose_repack(const GemmArgs& args, int sm, const GemmOptions& options, const GemmKernel* unpacked) {
  Choice best;
  std::int64_t const eb = size_of(args.input);
  bool const bad_a = !detail::operand_aligned16(args.a, eb, args.batch_count);
  bool const bad_b = !detail::operand_aligned16(args.b, eb, args.batch_count);
  bool const a_km = args.a.order == MatrixOrder::row_major;
  bool const b_km = args.b.order == MatrixOrder::col_major;
  bool const ffma_kernel = unpacked != nullptr && (unpacked->info.name == std::string_view("simt_tiled_sgemm") ||
                                                   unpacked->info.name == std::string_view("simt_sgemm"));
  if (options.kernel.empty() && ffma_kernel) {
    Choice const c = choose_simt_repack(args, sm, options, unpacked, a_km, b_km, bad_a, bad_b);
    if (c.kernel != nullptr || (!bad_a && !bad_b)) return c;
  }
  if (!bad_a && !bad_b) {
    // Aligned operands: a K-major copy of the M/N-major ones only when it
    // reaches a kernel the heuristic ranks above the one that reads them in
    // place (on Hopper, for tf32: the TMA kernel, which reads 16-bit inputs in
    // any order but at most one M/N-major tf32 operand, instead of
    // mma.sync), and only for problems large enough (kMinFlopForTf32Copy,
    // kMinFlopForLayoutCopy).
    // Copying one of two M/N-major operands may be enough (tf32 on Hopper
    // reads one through registers): the smaller one alone, then the other
    // alone, then both; the first plan that reaches a higher-ranked kernel.
    if (!options.kernel.empty() || unpacked == nullptr || (a_km && b_km)) return best;
    double const flop = problem_flop(args);
    bool const tf32 = args.input == DataType::tf32;
    double const min_flop_per_byte = tf32 ? kMinFlopPerTf32CopiedByte : kMinFlopPerCopiedByte;
    if (flop < (tf32 ? kMinFlopForTf32Copy : kMinFlopForLayoutCopy)) return best;
    int const unpacked_rank = detail::heuristic_rank(*unpacked, args, sm);
    RepackPlan const both = detail::plan_repack(args, a_km ? RepackTarget::keep : RepackTarget::k_major,
                                                b_km ? RepackTarget::keep : RepackTarget::k_major);
    std::vector<RepackPlan> plans;
    if (!a_km && !b_km) {
      RepackPlan const only_a = detail::plan_repack(args, RepackTarget::k_major, RepackTarget::keep);
      RepackPlan const only_b = detail::plan_repack(args, RepackTarget::keep, RepackTarget::k_major);
      plans = only_a.bytes <= only_b.bytes ? std::vector<RepackPlan>{only_a, only_b}
                                           : std::vector<RepackPlan>{only_b, only_a};
    }
    plans.push_back(both);
    // The same kernel may also gain from a copy: the TMA kernel reads one
    // M/N-major tf32 operand as A' only, so when that operand is B in D's
    // own orientation it computes D^T and writes D through the direct
    // epilogue (sm90_ws_transposes_for_tf32). Where D is large and K short,
    // those writes dominate: copied K-major, the operand lets the kernel
    // keep D's orientation and its TMA-store epilogue.
    // NOTE: run 198 (H100, tf32, D row-major, 16384x8192x1024): tt (B
    // M/N-major, transposed) 0.815x cuBLAS, 241 TFLOP/s; nt (B copied, A
    // read through registers, untransposed) 265.8; tn 316.8. 1000^3 and
    // 1024^3 tt 1.08-1.12x; 4096^3 and longer K within noise of tn. The
    // threshold on D: kMinTransposedWriteBytes.
    bool const same_kernel_gains = unpacked->info.name == std::string_view("sm90_ws_gemm") &&
                                   detail::sm90_ws_transposes_for_tf32(args) && args.k < 2048 &&
                                   double(args.m) * double(args.n) * 4.0 >= kMinTransposedWriteBytes;
    for (const RepackPlan& rp : plans) {
      if (flop < min_flop_per_byte * double(rp.bytes)) continue;
      GemmArgs g;
      const GemmKernel* k = kernel_on_copies(args, rp, sm, options, &g);
      if (k == nullptr) continue;
      int const rank = detail::heuristic_rank(*k, g, sm);
      if (rank > unpacked_rank || (same_kernel_gains && k == unpacked)) return {rp, k, rank};
    }
    return best;
  }
  auto target = [](bool bad, bool km, int plan) {
    if (plan == 0) return bad ? RepackTarget::same_order : RepackTarget::keep;
    if (plan == 1) return bad ? RepackTarget::k_major : RepackTarget::keep;
    return bad || !km ? RepackTarget::k_major : RepackTarget::keep;
  };
  for (int plan = 0; plan < 3; ++plan) {
    RepackPlan const rp = detail::plan_repack(args, target(bad_a, a_km, plan), target(bad_b, b_km, plan));
    GemmArgs g;
    const GemmKernel* k = kernel_on_copies(args, rp, sm, options, &g);
    if (k == nullptr) continue;
    int const rank = options.kernel.empty() ? detail::heuristic_rank(*k, g, sm) : 0;
    if (rank > best.rank) best = {rp, k, rank};
    if (!options.kernel.empty()) break;
  }
  // The portable kernel reads any alignment at the same speed: no copy for it
  // unless it was asked for by name.
  if (options.kernel.empty() && best.kernel != nullptr && best.kernel->info.name == std::string_view("simt_generic"))
    return {};
  return best;
}

// Run `kernel` on copies of A/B made by `plan`. Returns false (*out
// untouched, D not written; at most the copies were enqueued) when no
// workspace could be had or the kernel refused the copies.
bool run_repacked(const GemmArgs& args, const Choice& c, gemm_stream_t stream, const GemmOptions& options,
                  Status* out) {
  void* ws = nullptr;
  bool owned = false;
  if (options.workspace != nullptr && options.workspace_bytes >= c.plan.bytes &&
      reinterpret_cast<std::uintptr_t>(options.workspace) % detail::kRepackAlign == 0) {
    ws = options.workspace;
  } else {
    if (cudaMallocAsync(&ws, c.plan.bytes, stream) != cudaSuccess) {
      cudaGetLastError();  // not sticky; fall back to the unpacked path
      return false;
    }
    owned = true;
  }
  Status s = detail::launch_repack(c.plan.a, c.plan.elem_bytes, ws, stream);
  if (s.ok()) s = detail::launch_repack(c.plan.b, c.plan.elem_bytes, ws, stream);
  if (s.ok()) s = c.kernel->launch(detail::packed_args(args, c.plan, ws), stream);
  if (owned) cudaFreeAsync(ws, stream);
  if (!s.ok() && s.code != StatusCode::cuda_error) {
    // The kernel refused the copies after all (it checks more than
    // can_implement, e.g. shared memory): D is untouched, the caller falls
    // back to the plain path.
    return false;
  }
  *out = std::move(s);
  return true;
}

// What a call runs: when `repack.kernel` is set, copies of A/B and then that
// kernel; otherwise the plain selection (`direct`, or the reason in `status`).
struct CallChoice {
  Status status;
  const GemmKernel* direct = nullptr;
  Choice repack;
};

// Returns a failing status only for an unknown kernel name or an unsupported
// architecture; a problem no kernel takes as it is may still have a repack.
Status choose_call(const GemmArgs& args, int sm, const GemmOptions& options, CallChoice* out) {
  out->status = select_gemm_kernel(args, sm, options, &out->direct);
  if (out->status.code == StatusCode::unknown_kernel || out->status.code == StatusCode::unsupported_architecture)
    return out->status;
  // NOTE: misaligned A/B are copied once (~4 bytes of DRAM traffic per 16-bit
  // element, tens of microseconds for a 4096^2 operand) so that a 16-byte
  // cp.async or TMA kernel runs instead of the element-wide path (0.6x
  // cuBLAS on 4095x4097x4093 bf16 in GPU run 2, while the TMA kernel ran the
  // same shape with a padded ld at 5.6x).
  // A kernel named in the options runs the operands as they are when it can
  // (so a test of its own unaligned path stays one); the copy is made only
  // when it cannot.
  bool const named_runs_as_is = !options.kernel.empty() && out->status.ok();
  if (options.repack == RepackPolicy::automatic && args.k > 0 && !named_runs_as_is) {
    Choice const c = choose_repack(args, sm, options, out->status.ok() ? out->direct : nullptr);
    if (c.kernel != nullptr && c.plan.bytes > 0) out->repack = c;
  }
  return {};
}

}  // namespace

Status select_gemm_call(const GemmArgs& args, int sm, const GemmOptions& options, GemmCallPlan* out) {
  *out = {};
  CallChoice c;
  if (Status s = choose_call(args, sm, options, &c); !s.ok()) return s;
  if (c.repack.kernel != nullptr) {
    *out = {c.repack.kernel, c.repack.plan.a.active, c.repack.plan.b.active, c.repack.plan.bytes};
    return {};
  }
  if (!c.status.ok()) return c.status;
  out->kernel = c.direct;
  return {};
}

namespace {

// A caller's workspace must not overlap what the call reads or writes: the
// repack would overwrite an operand before the kernel reads it.
Status check_workspace(const GemmArgs& args, const GemmOptions& options) {
  if (options.workspace == nullptr || options.workspace_bytes == 0 || args.k == 0) return {};
  auto const begin = reinterpret_cast<std::uintptr_t>(options.workspace);
  if (options.workspace_bytes > UINTPTR_MAX - begin)
    return {StatusCode::invalid_size, "tessera::gemm: workspace_bytes runs past the end of the address space"};
  detail::ByteRange const ws{begin, begin + options.workspace_bytes};
  for (detail::CallOperand const& o : detail::call_operands(args))
    if (o.used && detail::overlaps(ws, o.bytes(args.batch_count)))
      return {StatusCode::aliasing, std::string("tessera::gemm: the workspace overlaps ") + o.name};
  return {};
}

}  // namespace

Status gemm(const GemmArgs& args_in, gemm_stream_t stream, const GemmOptions& options) {
  if (Status s = validate_arguments(args_in); !s.ok()) return s;
  if (args_in.m == 0 || args_in.n == 0 || args_in.batch_count == 0) return {};
  if (Status s = check_workspace(args_in, options); !s.ok()) return s;
  // K == 0: D = beta * C whatever alpha is (alpha times an empty sum is 0, as
  // in BLAS; an infinite or NaN alpha must not turn it into NaN).
  GemmArgs args = args_in;
  if (args.k == 0) args.alpha = 0.0f;
  std::string why;
  int const sm = current_sm(&why);
  if (Status s = validate_device(sm, why); !s.ok()) return s;
  CallChoice c;
  if (Status s = choose_call(args, sm, options, &c); !s.ok()) return s;
  if (c.repack.kernel != nullptr) {
    Status s;
    if (run_repacked(args, c.repack, stream, options, &s)) return s;
  }
  if (!c.status.ok()) return c.status;
  return c.direct->launch(args, stream);
}

}  // namespace tessera
