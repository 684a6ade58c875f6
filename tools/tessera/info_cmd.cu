// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// `tessera info`: the device, its datasheet-style peaks, and the measured
// ceilings (device-to-device copy bandwidth, the mma.sync issue rate, cuBLAS
// bf16 and f32 at 8192^3).
#include <cstdio>

#include "cli.hpp"
#include "command.hpp"
#include "device/device_query.hpp"
#include "gemm_bench.hpp"
#include "mma_ceiling.hpp"
#include "reference/cublas_reference.hpp"

namespace {

int run_info(int argc, char** argv) {
  using namespace tessera;
  bench::Options opts({"size"}, {"no-measure"});
  if (!opts.parse(argc, argv)) {
    std::fprintf(stderr, "tessera info: %s\nusage: tessera info [--no-measure] [--size N]\n",
                 opts.error().c_str());
    return 2;
  }
  std::int64_t size = 8192;
  if (!opts.get_int("size", &size) || size < 1) {
    std::fprintf(stderr, "tessera info: --size needs a positive integer\n");
    return 2;
  }
  DeviceInfo d;
  if (Status s = query_device(&d); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message.c_str());
    return bench::kExitNoDevice;
  }
  double const clock = measure_sm_clock_mhz();
  bench::print_header(d, clock);
  std::printf("memory: %.1f GiB, bus %d bit at %d MHz; smem/block (opt-in) %d KiB, smem/SM %d KiB, "
              "regs/SM %d, threads/SM %d\n",
              d.global_memory_bytes / 1073741824.0, d.memory_bus_bits, d.memory_clock_mhz,
              d.smem_per_block_optin / 1024, d.smem_per_sm / 1024, d.regs_per_sm,
              d.max_threads_per_sm);
  std::printf("registered GEMM kernels:\n");
  for (const GemmKernel& k : gemm_kernels()) {
    bool const arch_ok = validate_kernel_architecture(k.info, d.sm).ok();
    bool const runs_here = arch_ok && validate_kernel_device(k, d.sm).ok();
    std::printf("  %-28s sm_%d%s  %s%s\n", std::string(k.info.name).c_str(), k.info.min_sm,
                k.info.max_sm ? ("..sm_" + std::to_string(k.info.max_sm)).c_str() : "+",
                std::string(k.info.notes).c_str(),
                runs_here ? "" : arch_ok ? "  [this build has no device code for it]" : "  [not on this device]");
  }
  if (opts.has("no-measure")) return 0;

  std::printf("measured ceilings:\n");
  std::fflush(stdout);
  // The same measurement as the %BW column of `tessera bench`.
  double const gbps = bench::copy_bandwidth_gbps(d);
  std::printf("  device-to-device copy: %.0f GB/s (read + write bytes; %.0f%% of %.0f GB/s peak "
              "estimate; the %%BW denominator of tessera bench)\n",
              gbps, d.peak_dram_gbps > 0 ? 100 * gbps / d.peak_dram_gbps : 0.0, d.peak_dram_gbps);
  if (d.sm >= 80) {
    // The Ampere path's own ceiling, with 1, 2 and 4 warps per scheduler.
    for (bool f16_acc : {true, false}) {
      std::printf("  mma.sync m16n8k16 f16, %s accumulate, registers only (the Ampere path's ceiling):",
                  f16_acc ? "f16" : "f32");
      for (int warps : {4, 8, 16}) {
        bench::MmaCeiling const c = bench::measure_mma_sync_ceiling(f16_acc, warps, d.sm_count);
        std::printf("%s %d warps/SM %.1f TFLOP/s at %.0f MHz", warps == 4 ? "" : ";", warps, c.tflops, c.sm_mhz);
      }
      std::printf("\n");
    }
  }
  CublasReference cublas;
  if (!cublas.status().ok()) {
    std::fprintf(stderr, "tessera info: %s\n", cublas.status().message.c_str());
    return 1;
  }
  for (DataType t : {DataType::bf16, DataType::f32}) {
    double const tf = bench::measure_cublas_tflops(d, t, size, cublas);
    std::printf("  cuBLAS %-4s TN %lld^3: %.1f TFLOP/s (%.0f%% of %.0f peak estimate)\n",
                std::string(to_string(t)).c_str(), static_cast<long long>(size), tf,
                d.peak_tflops(t) > 0 ? 100 * tf / d.peak_tflops(t) : 0.0, d.peak_tflops(t));
  }
  return 0;
}

}  // namespace

TESSERA_TOOL_COMMAND(info, "device, clocks, L2 and measured roofline ceilings", run_info)
