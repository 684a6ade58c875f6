// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// `tessera gemm`: one problem through a Tessera kernel and cuBLAS, checked
// against the fp64 reference, with TFLOP/s side by side.
#include <cstdio>

#include "cli.hpp"
#include "command.hpp"
#include "device/device_query.hpp"
#include "gemm_bench.hpp"
#include "reference/cublas_reference.hpp"

namespace {

constexpr const char* kUsage =
    "usage: tessera gemm --m M --n N --k K [--layout tn|nn|nt|tt] [--type bf16|f16|f16acc|f32|tf32]\n"
    "                    [--batch B] [--kernel NAME] [--check] [--reps N]\n"
    "  --check  compare every row of D with the fp64 reference (default: 64 sampled rows)\n"
    "           and exit 1 when the error is above the precision's bound\n"
    "  --reps   timed runs (default: adaptive, at least 20)\n";

int run_gemm(int argc, char** argv) {
  using namespace tessera;
  bench::Options opts({"m", "n", "k", "layout", "type", "kernel", "reps", "batch"}, {"check", "help"});
  if (!opts.parse(argc, argv) || opts.has("help")) {
    if (!opts.has("help")) std::fprintf(stderr, "tessera gemm: %s\n", opts.error().c_str());
    std::fprintf(stderr, "%s", kUsage);
    return opts.has("help") ? 0 : 2;
  }
  bench::Problem p;
  std::int64_t reps = 0, batch = 1;
  p.shape = {4096, 4096, 4096, "cli"};
  if (!opts.get_int("m", &p.shape.m) || !opts.get_int("n", &p.shape.n) ||
      !opts.get_int("k", &p.shape.k) || !opts.get_int("reps", &reps) ||
      !opts.get_int("batch", &batch) || p.shape.m < 1 || p.shape.n < 1 || p.shape.k < 1 ||
      batch < 1 || reps < 0) {
    std::fprintf(stderr, "tessera gemm: --m, --n, --k, --batch need positive integers\n%s", kUsage);
    return 2;
  }
  p.batch_count = batch;
  p.layout = opts.get("layout", "tn");
  MatrixOrder oa, ob;
  if (!bench::parse_layout(p.layout, &oa, &ob)) {
    std::fprintf(stderr, "tessera gemm: unknown layout '%s'\n%s", p.layout.c_str(), kUsage);
    return 2;
  }
  if (!bench::parse_type(opts.get("type", "bf16"), &p.type, &p.accumulate)) {
    std::fprintf(stderr, "tessera gemm: unknown type '%s'\n%s", opts.get("type").c_str(), kUsage);
    return 2;
  }
  DeviceInfo d;
  if (Status s = query_device(&d); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message.c_str());
    return bench::kExitNoDevice;
  }
  std::string kernel = opts.get("kernel");
  if (kernel.empty()) {
    // The kernel tessera::gemm would choose for these operands as they are
    // (for misaligned ones the public call may repack and run another).
    GemmArgs probe;
    probe.m = p.shape.m;
    probe.n = p.shape.n;
    probe.k = p.shape.k;
    probe.input = p.type;
    probe.accumulate = p.accumulate;
    probe.a.order = oa;
    probe.b.order = ob;
    probe.a.ld = oa == MatrixOrder::row_major ? p.shape.k : p.shape.m;
    probe.b.ld = ob == MatrixOrder::row_major ? p.shape.n : p.shape.k;
    probe.d.ld = p.shape.n;
    probe.batch_count = p.batch_count;
    probe.a.batch_stride = p.shape.m * p.shape.k;
    probe.b.batch_stride = p.shape.k * p.shape.n;
    probe.d.batch_stride = p.shape.m * p.shape.n;
    const GemmKernel* chosen = nullptr;
    if (Status s = select_gemm_kernel(probe, d.sm, {}, &chosen); !s.ok()) {
      std::fprintf(stderr, "%s\n", s.message.c_str());
      return 1;
    }
    kernel = std::string(chosen->info.name);
  } else if (find_gemm_kernel(kernel) == nullptr) {
    std::fprintf(stderr, "tessera gemm: no kernel named '%s'; registered:", kernel.c_str());
    for (const GemmKernel& k : gemm_kernels()) std::fprintf(stderr, " %s", std::string(k.info.name).c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  bench::Config config;
  config.verbose = false;
  if (opts.has("check")) config.check_rows = p.shape.m;
  if (reps > 0) {
    config.min_runs = config.max_runs = config.slow_min_runs = static_cast<int>(reps);
    config.seconds_per_kernel = config.slow_seconds_per_kernel = 1e9;
  }
  bench::print_header(d, measure_sm_clock_mhz());
  CublasReference cublas;
  bench::warm_up_gpu(d, cublas);
  bench::ProblemResult r;
  if (Status s = bench::run_problem(p, d, config, cublas, kernel, &r); !s.ok()) {
    std::fprintf(stderr, "tessera gemm: %s\n", s.message.c_str());
    return 1;
  }
  bench::print_table({r});
  bool all_ok = true;
  for (const bench::Measurement& m : r.rows) all_ok = all_ok && m.ok;
  return opts.has("check") && !all_ok ? 1 : 0;
}

}  // namespace

TESSERA_TOOL_COMMAND(gemm, "one GEMM: Tessera kernel vs cuBLAS, checked, TFLOP/s", run_gemm)
