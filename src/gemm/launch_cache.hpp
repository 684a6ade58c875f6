// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Per-(kernel, device) answers the launchers need on every call, asked of
// the runtime once: the shared-memory attributes of a kernel and its
// occupancy. Each runtime call costs microseconds of host time before the
// launch, which a small GEMM cannot hide (docs/performance.md, "Host time
// per call").
#pragma once

#include "tessera/gemm/api.hpp"
#include "tessera/gemm/launch_attributes.hpp"  // set_smem_attributes_once

namespace tessera::detail {

// `shape` with its function's shared-memory attributes set on the current
// device (set_smem_attributes_once), as GemmKernel::launch_shape promises,
// so that an occupancy query before the first launch is right; {} when
// `shape` has no function or the attributes cannot be set.
[[nodiscard]] GemmKernel::LaunchShape ready_launch_shape(GemmKernel::LaunchShape shape);

// Resident CTAs per SM of `fn` launched with `threads` threads and `smem`
// bytes of dynamic shared memory on the current device
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor), asked once per
// (fn, device, threads, smem); 0 when the query fails.
[[nodiscard]] int resident_ctas_per_sm(const void* fn, int threads, int smem);

}  // namespace tessera::detail
