// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// `tessera bench`: every applicable Tessera kernel beside cuBLAS over a suite
// of shapes, types and layouts; table on stdout, progress on stderr, optional
// CSV / JSON / SVG.
#include <chrono>
#include <cstdio>

#include "cli.hpp"
#include "command.hpp"
#include "device/device_query.hpp"
#include "gemm_bench.hpp"
#include "reference/cublas_reference.hpp"

namespace {

constexpr const char* kUsage =
    "usage: tessera bench [--suite default|square|seed|llm|skinny|odd|midsize|all] [--quick] [--shapes MxNxK,...]\n"
    "                     [--types bf16,f16,f16acc,f32,tf32] [--layouts tn,nn,nt,tt] [--kernel NAME]\n"
    "                     [--skip-kernels A,B] [--beta B] [--csv FILE] [--json FILE] [--svg FILE] [--no-gate]\n"
    "  default: the square, seed, llm, skinny and odd shapes, bf16, tn; all: those and the midsize ones.\n"
    "  --quick: a subset of the shapes.\n"
    "  --shapes: these problems instead of a suite, e.g. --shapes 4096x4096x4096,8192x8192x8192.\n"
    "  f16acc: f16 inputs and output with f16 accumulation (cuBLAS CUBLAS_COMPUTE_16F beside it;\n"
    "  on Hopper the wgmma kernel runs it, the mma.sync kernels get rows of their own).\n"
    "  --beta B: D = A B + B C (default 0), C updated in place in D's buffer for cuBLAS and Tessera alike.\n"
    "  Files are rewritten after every problem, so an interrupted run keeps its results.\n"
    "  --no-gate: time each run as it is issued, without first queueing the runs behind a gate\n"
    "  kernel; small problems then include host time where the call is slower to issue than to run.\n";

int run_bench(int argc, char** argv) {
  using namespace tessera;
  bench::Options opts({"suite", "shapes", "types", "layouts", "kernel", "skip-kernels", "beta", "csv", "json", "svg"},
                      {"quick", "help", "no-gate"});
  if (!opts.parse(argc, argv) || opts.has("help")) {
    if (!opts.has("help")) std::fprintf(stderr, "tessera bench: %s\n", opts.error().c_str());
    std::fprintf(stderr, "%s", kUsage);
    return opts.has("help") ? 0 : 2;
  }
  std::string const suite = opts.get("suite", "default");
  std::vector<bench::Shape> shapes = bench::suite_shapes(suite, opts.has("quick"));
  if (opts.has("shapes")) {
    if (opts.has("suite") || opts.has("quick")) {
      std::fprintf(stderr, "tessera bench: --shapes replaces --suite and --quick; give one\n%s", kUsage);
      return 2;
    }
    shapes.clear();
    for (const std::string& t : bench::split_list(opts.get("shapes"))) {
      bench::Shape sh;
      if (!bench::parse_shape(t, &sh)) {
        std::fprintf(stderr, "tessera bench: bad shape '%s' (want MxNxK, positive integers)\n%s", t.c_str(), kUsage);
        return 2;
      }
      shapes.push_back(sh);
    }
  }
  if (shapes.empty()) {
    std::fprintf(stderr, "tessera bench: unknown suite '%s'\n%s", suite.c_str(), kUsage);
    return 2;
  }
  struct TypeChoice {
    DataType input, accumulate;
  };
  std::vector<TypeChoice> types;
  for (const std::string& t : bench::split_list(opts.get("types", "bf16"))) {
    TypeChoice c{};
    if (!bench::parse_type(t, &c.input, &c.accumulate)) {
      std::fprintf(stderr, "tessera bench: unknown type '%s'\n%s", t.c_str(), kUsage);
      return 2;
    }
    types.push_back(c);
  }
  std::vector<std::string> layouts = bench::split_list(opts.get("layouts", "tn"));
  for (const std::string& l : layouts) {
    MatrixOrder a, b;
    if (!bench::parse_layout(l, &a, &b)) {
      std::fprintf(stderr, "tessera bench: unknown layout '%s'\n%s", l.c_str(), kUsage);
      return 2;
    }
  }
  float beta = 0.0f;
  if (opts.has("beta") && !bench::parse_beta(opts.get("beta"), &beta)) {
    std::fprintf(stderr, "tessera bench: bad --beta '%s' (want a finite number)\n%s", opts.get("beta").c_str(), kUsage);
    return 2;
  }
  std::string const kernel = opts.get("kernel");
  if (!kernel.empty() && find_gemm_kernel(kernel) == nullptr) {
    std::fprintf(stderr, "tessera bench: no kernel named '%s'\n", kernel.c_str());
    return 2;
  }

  DeviceInfo d;
  if (Status s = query_device(&d); !s.ok()) {
    std::fprintf(stderr, "%s\n", s.message.c_str());
    return bench::kExitNoDevice;
  }
  double const clock = measure_sm_clock_mhz();
  bench::print_header(d, clock);
  CublasReference cublas;
  if (!cublas.status().ok()) {
    std::fprintf(stderr, "tessera bench: %s\n", cublas.status().message.c_str());
    return 1;
  }
  bench::warm_up_gpu(d, cublas);

  auto const t0 = std::chrono::steady_clock::now();
  bench::Config config;
  config.skip_kernels = bench::split_list(opts.get("skip-kernels"));
  config.queue_gate = !opts.has("no-gate");
  std::vector<bench::ProblemResult> results;
  int failures = 0;
  size_t const total = shapes.size() * types.size() * layouts.size();
  size_t done = 0;
  for (const bench::Shape& shape : shapes)
    for (TypeChoice type : types)
      for (const std::string& layout : layouts) {
        bench::Problem p;
        p.shape = shape;
        p.type = type.input;
        p.accumulate = type.accumulate;
        p.layout = layout;
        p.beta = beta;
        std::fprintf(stderr, "[bench] problem %zu/%zu: %lldx%lldx%lld %s %s\n", ++done, total,
                     static_cast<long long>(shape.m), static_cast<long long>(shape.n),
                     static_cast<long long>(shape.k), bench::type_label(p).c_str(),
                     layout.c_str());
        bench::ProblemResult r;
        if (Status s = bench::run_problem(p, d, config, cublas, kernel, &r); !s.ok()) {
          std::fprintf(stderr, "[bench] skipped: %s\n", s.message.c_str());
          ++failures;
          continue;
        }
        for (const bench::Measurement& m : r.rows) failures += m.ok ? 0 : 1;
        results.push_back(std::move(r));
        // Partial results survive a time limit.
        if (opts.has("csv")) bench::write_csv(opts.get("csv"), d, results);
        if (opts.has("json")) bench::write_json(opts.get("json"), d, clock, results);
        if (opts.has("svg")) bench::write_svg(opts.get("svg"), d, results);
      }
  double const seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  bench::print_table(results);
  std::printf("%zu problems in %.0f s; %d failed checks. Ratios are Tessera / cuBLAS median "
              "TFLOP/s on the same data; %%peak is of the datasheet-style estimate above; %%BW is "
              "bytes of A and B (each once) per median time, of the measured copy bandwidth; * "
              "marks the kernel tessera::gemm runs by default on the operands as given (no row "
              "when it repacks them first).\n",
              results.size(), seconds, failures);
  int rc = failures > 0 ? 1 : 0;
  auto write = [&](const char* what, const std::string& path, bool ok) {
    if (ok) {
      std::fprintf(stderr, "[bench] wrote %s %s\n", what, path.c_str());
    } else {
      std::fprintf(stderr, "tessera bench: cannot write %s '%s'\n", what, path.c_str());
      rc = 1;
    }
  };
  if (opts.has("csv")) write("CSV", opts.get("csv"), bench::write_csv(opts.get("csv"), d, results));
  if (opts.has("json"))
    write("JSON", opts.get("json"), bench::write_json(opts.get("json"), d, clock, results));
  if (opts.has("svg")) write("SVG", opts.get("svg"), bench::write_svg(opts.get("svg"), d, results));
  return rc;
}

}  // namespace

TESSERA_TOOL_COMMAND(bench, "GEMM benchmark suite: Tessera kernels beside cuBLAS", run_bench)
