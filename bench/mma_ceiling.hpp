// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The mma.sync issue ceiling: the rate at which the device executes m16n8k16
// f16 mma.sync when warps do nothing else (register operands, no memory
// traffic, one block of `warps_per_sm` warps on every SM). No mma.sync GEMM
// (the Ampere path) can beat it; on Hopper it sits below the wgmma peak,
// which is what `tessera info` and docs/gemm_kernels.md compare against.
#pragma once

namespace tessera::bench {

struct MmaCeiling {
  double tflops = 0;  // median over the repeats; 0 when it could not be measured
  double sm_mhz = 0;  // SM clock under this load (clock64 cycles of block 0 / elapsed time)
};

// f16 inputs; f16 accumulation (mma...f16.f16.f16.f16) or f32
// (mma...f32.f16.f16.f32). Needs an sm_80+ device.
MmaCeiling measure_mma_sync_ceiling(bool f16_accumulate, int warps_per_sm, int sm_count, int repeats = 5);

}  // namespace tessera::bench
