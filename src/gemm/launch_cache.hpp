// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Per-(kernel, device) answers the launchers need on every call, asked of
// the runtime once: the shared-memory attributes of a kernel and its
// occupancy. Each runtime call costs microseconds of host time before the
// launch, which a small GEMM cannot hide (docs/performance.md, "Host time
// per call").
#pragma once

namespace tessera::detail {

// Lets `fn` use `bytes` of dynamic shared memory (and prefer the largest
// shared-memory carve-out) on the current device. The first call for
// (fn, device, bytes) sets the attributes; later ones return its result
// (a cudaError_t as an int, 0 on success) without a runtime call.
[[nodiscard]] int set_smem_attributes_once(const void* fn, int bytes);

// Resident CTAs per SM of `fn` launched with `threads` threads and `smem`
// bytes of dynamic shared memory on the current device
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor), asked once per
// (fn, device, threads, smem); 0 when the query fails.
[[nodiscard]] int resident_ctas_per_sm(const void* fn, int threads, int smem);

}  // namespace tessera::detail
