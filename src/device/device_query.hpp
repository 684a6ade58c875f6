// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// What the benchmark and the tool need to know about the current device.
#pragma once

#include <string>

#include "tessera/gemm/api.hpp"

namespace tessera {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int sm = 0;                      // major*10+minor
  int sm_count = 0;
  int max_sm_clock_mhz = 0;        // cudaDevAttrClockRate (peak)
  int memory_clock_mhz = 0;
  int memory_bus_bits = 0;
  long long l2_bytes = 0;
  long long global_memory_bytes = 0;
  int smem_per_block_optin = 0;    // bytes, opt-in maximum
  int smem_per_sm = 0;
  int regs_per_sm = 0;
  int max_threads_per_sm = 0;
  // Datasheet-style estimates from SM count and peak clock (dense math).
  double peak_dram_gbps = 0;       // 2 * memory clock * bus width
  double peak_tflops_f32_simt = 0;
  double peak_tflops_tf32_tc = 0;
  double peak_tflops_f16_tc = 0;   // also bf16

  // Peak TFLOP/s for the math a problem of `input` type uses.
  [[nodiscard]] double peak_tflops(DataType input) const;
};

// Fills `out` for the current device. Returns no_device (with the CUDA
// error text) when there is none.
Status query_device(DeviceInfo* out);

// Measures the SM clock while a kernel runs (clock64 cycles over event time),
// in MHz; 0 on failure.
double measure_sm_clock_mhz();

}  // namespace tessera
