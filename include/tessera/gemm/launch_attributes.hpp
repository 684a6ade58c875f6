// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The shared-memory opt-in every launcher needs before a kernel with more
// than 48 KiB of dynamic shared memory can launch, asked of the runtime once
// per (kernel, device, bytes) instead of on every call (each
// cudaFuncSetAttribute cost 0.54 us of host time on an H100 host, run 86:
// host time that a small GEMM cannot hide). Implemented in the runtime library
// (src/gemm/launch_cache.cpp); public because the header-only SIMT launch
// path (simt_sgemm.cuh) calls it too.

namespace tessera::detail {

// Lets `fn` use `bytes` of dynamic shared memory (and prefer the largest
// shared-memory carve-out) on the current device. The first call for
// (fn, device, bytes) sets the attributes; later ones return its result
// (a cudaError_t as an int, 0 on success) without a runtime call.
[[nodiscard]] int set_smem_attributes_once(const void* fn, int bytes);

}  // namespace tessera::detail
