// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Whether the current device runs the sm_90a code of the calling translation
// unit. A build whose CUDA architectures lack 90a (e.g. "80", "90", "native",
// "all-major") gives an H100 plain sm_90 SASS or JIT-compiled PTX, where
// every wgmma/setmaxnreg path is compiled out (TESSERA_SM90A_ENABLED is 0);
// a kernel relying on them must not be launched there. Host-side; the
// answer is per translation unit (each TU's probe carries that TU's images),
// so ask it from the TU that holds the kernel.
//
//   if (!arch::sm90a_image_loaded()) return fail("no sm_90a device code in this build");

#include <cuda_runtime.h>

#include <tessera/arch/arch.cuh>

namespace tessera::arch {
namespace detail {

// Static shared memory only in the sm_90a image, so cudaFuncGetAttributes,
// which reports on the image the driver picked for the current device, tells
// which one that was. A template so that every TU has its own copy.
template <int kUnused = 0>
__global__ void sm90a_image_probe_kernel() {
#if TESSERA_SM90A_ENABLED
  __shared__ volatile int marker;
  marker = kUnused;
#endif
}

}  // namespace detail

// True when the current device would run this TU's sm_90a image; false on
// another architecture, without a device, or when the build has no 90a code.
inline bool sm90a_image_loaded() {
  cudaFuncAttributes attributes{};
  if (cudaFuncGetAttributes(&attributes, detail::sm90a_image_probe_kernel<0>) != cudaSuccess) {
    cudaGetLastError();  // not sticky: no image for this device is an answer, not an error
    return false;
  }
  return attributes.sharedSizeBytes > 0;
}

}  // namespace tessera::arch
