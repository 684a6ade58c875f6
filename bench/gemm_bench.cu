// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include "gemm_bench.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>

#include "queue_hold.hpp"
#include "reference/check.hpp"

namespace tessera::bench {
namespace {

struct DeviceBuffer {
  void* ptr = nullptr;
  DeviceBuffer() = default;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr != nullptr) cudaFree(ptr);
  }
  Status allocate(std::int64_t bytes) {
    cudaError_t const err = cudaMalloc(&ptr, static_cast<size_t>(bytes < 1 ? 1 : bytes));
    if (err == cudaSuccess) return {};
    ptr = nullptr;
    cudaGetLastError();
    return {StatusCode::cuda_error, std::string("cudaMalloc(") + std::to_string(bytes) +
                                        " bytes): " + cudaGetErrorString(err)};
  }
};

Status cuda_check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return {};
  return {StatusCode::cuda_error, std::string(what) + ": " + cudaGetErrorString(err)};
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t const n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Times `run(i)` (i selects the rotating input set) with one event pair per
// run, after warm-up; the number of runs adapts to the speed. With `partner`
// (cuBLAS on the same problem), every timed run of `run` is preceded by a
// timed run of `partner`, and `partner_median_ms` gets the partner's median:
// the two medians come from interleaved runs, so clock and temperature drift
// over the measurement affect both alike. Paired, the two alternate over the
// input sets (partner_run_set, row_run_set), so neither starts on operands
// the other has just left in L2.
// NOTE: until session 28 both read set j, which handed `run` a warm L2
// (inputs up to the L2's size, e.g. all of 1000^3's 4 MB) and its partner a
// cold one: a bias in Tessera's favour.
Status time_runs(const std::function<Status(int)>& run, const Config& config,
                 cudaStream_t stream, Measurement* m,
                 const std::function<Status(int)>* partner = nullptr, double* partner_median_ms = nullptr) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  Status s;
  float estimate_ms = 0;
  bool const paired = partner != nullptr;
  for (int i = 0; i < config.warmup_runs && s.ok(); ++i) {
    if (paired) s = (*partner)(int(partner_run_set(i)));
    if (!s.ok()) break;
    cudaEventRecord(e0, stream);
    s = run(int(row_run_set(i, paired)));
    cudaEventRecord(e1, stream);
    if (s.ok()) s = cuda_check(cudaEventSynchronize(e1), "warm-up");
    if (s.ok()) cudaEventElapsedTime(&estimate_ms, e0, e1);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  if (!s.ok()) return s;

  double const est_s = std::max(1e-7, estimate_ms * 1e-3);
  int runs = config.min_runs;
  if (est_s * config.min_runs > config.slow_seconds_per_kernel) {
    runs = std::max(config.slow_min_runs, static_cast<int>(config.slow_seconds_per_kernel / est_s));
    m->note = std::to_string(runs) + " runs only (slow: " + std::to_string(est_s * 1e3) + " ms/run)";
  } else {
    runs = std::clamp(static_cast<int>(config.seconds_per_kernel / est_s), config.min_runs,
                      config.max_runs);
  }

  std::vector<cudaEvent_t> events(2 * static_cast<size_t>(runs));
  std::vector<cudaEvent_t> pevents(partner != nullptr ? 2 * static_cast<size_t>(runs) : 0);
  for (auto& e : events) cudaEventCreate(&e);
  for (auto& e : pevents) cudaEventCreate(&e);
  // NOTE: the runs go in batches behind a queue gate (queue_hold.hpp), so
  // that each event pair brackets GPU work only, also where the host issues
  // a call more slowly than the GPU runs it (cuBLAS at 1024^3: ~20 us of
  // host time per ~9 us kernel on an H100). Timed without it, cuBLAS's
  // 1024^3 rate read 126-158 TFLOP/s in some rows and 211-235 in others of
  // the same process (runs 30-32, 87): its host time inside the interval.
  constexpr int kRunsPerGate = 32;
  QueueHold gate;
  for (int i = 0; i < runs && s.ok(); ++i) {
    if (config.queue_gate && i % kRunsPerGate == 0) {
      if (i > 0) gate.release();
      s = gate.hold(stream);
      if (!s.ok()) break;
    }
    if (paired) {
      cudaEventRecord(pevents[2 * i], stream);
      s = (*partner)(int(partner_run_set(config.warmup_runs + i)));
      cudaEventRecord(pevents[2 * i + 1], stream);
      if (!s.ok()) break;
    }
    cudaEventRecord(events[2 * i], stream);
    s = run(int(row_run_set(config.warmup_runs + i, paired)));
    cudaEventRecord(events[2 * i + 1], stream);
  }
  gate.release();
  if (s.ok()) s = cuda_check(cudaStreamSynchronize(stream), "timed runs");
  if (s.ok() && gate.timed_out())
    m->note = (m->note.empty() ? "" : m->note + "; ") + "queue gate timed out: some intervals may include host time";
  if (s.ok()) s = cuda_check(cudaGetLastError(), "timed runs");
  // Milliseconds between the event pairs (2i, 2i + 1).
  auto elapsed = [runs](const std::vector<cudaEvent_t>& ev) {
    std::vector<double> out;
    for (int i = 0; i < runs; ++i) {
      float t = 0;
      cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]);
      out.push_back(t);
    }
    return out;
  };
  std::vector<double> ms;
  if (s.ok()) ms = elapsed(events);
  if (s.ok() && partner != nullptr && partner_median_ms != nullptr) *partner_median_ms = median_of(elapsed(pevents));
  for (auto& e : events) cudaEventDestroy(e);
  for (auto& e : pevents) cudaEventDestroy(e);
  if (!s.ok()) return s;
  m->runs = runs;
  m->median_ms = median_of(ms);
  m->min_ms = *std::min_element(ms.begin(), ms.end());
  m->max_ms = *std::max_element(ms.begin(), ms.end());
  return {};
}

void fill_resources(const GemmKernel& kernel, const GemmArgs& args, const DeviceInfo& device,
                    Measurement* m) {
  if (kernel.launch_shape == nullptr) return;
  GemmKernel::LaunchShape const shape = kernel.launch_shape(args);
  if (shape.function == nullptr) return;
  cudaFuncAttributes attr{};
  if (cudaFuncGetAttributes(&attr, shape.function) != cudaSuccess) {
    cudaGetLastError();
    return;
  }
  m->registers = attr.numRegs;
  m->static_smem = static_cast<int>(attr.sharedSizeBytes);
  m->dynamic_smem = shape.dynamic_smem_bytes;
  m->threads = shape.threads;
  int blocks = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, shape.function, shape.threads,
                                                    shape.dynamic_smem_bytes) == cudaSuccess) {
    m->blocks_per_sm = blocks;
    if (device.max_threads_per_sm > 0)
      m->occupancy = static_cast<double>(blocks) * shape.threads / device.max_threads_per_sm;
  } else {
    cudaGetLastError();
  }
}

}  // namespace

std::vector<Shape> suite_shapes(std::string_view suite, bool quick) {
  std::vector<Shape> square = {{1024, 1024, 1024, "square"}, {2048, 2048, 2048, "square"},
                               {4096, 4096, 4096, "square"}, {8192, 8192, 8192, "square"},
                               {16384, 16384, 16384, "square"}};
  std::vector<Shape> seed = {{5120, 5120, 4096, "seed"}};
  std::vector<Shape> llm = {{4096, 6144, 4096, "llm"}, {4096, 28672, 4096, "llm"},
                            {4096, 4096, 14336, "llm"}, {16384, 8192, 1024, "llm"}};
  std::vector<Shape> skinny = {{128, 8192, 8192, "skinny"}, {64, 28672, 4096, "skinny"},
                               {16, 4096, 14336, "skinny"}};
  std::vector<Shape> odd = {{4095, 4097, 4093, "odd"}, {1000, 1000, 1000, "odd"}};
  // Not in the issue's default suite: the mid-size problems of session 11's
  // sweep (docs/performance.md, "Session 11"), where the Hopper kernel reads
  // 0.80-0.98x cuBLAS -- one 128x128 tile per CTA or a badly quantised last
  // wave, and rows of 32- or 16-byte alignment (1000x1000x2000, 1200^2 x 1040);
  // then session 32's (run 274): 1536-3072 wide with K = 4096, one to three
  // partly filled waves of 128x256 tiles (0.74-0.92x after its 128x192 tiles).
  std::vector<Shape> midsize = {{768, 768, 768, "midsize"},       {1536, 1536, 1024, "midsize"},
                                {1536, 1536, 1536, "midsize"},    {2048, 1024, 512, "midsize"},
                                {2304, 2304, 1024, "midsize"},    {3072, 3072, 512, "midsize"},
                                {1000, 1000, 2000, "midsize"},    {1200, 1200, 1040, "midsize"},
                                {1536, 2048, 4096, "midsize"},    {2048, 2560, 4096, "midsize"},
                                {2560, 2560, 4096, "midsize"},    {3072, 3072, 4096, "midsize"}};
  if (quick) {
    square = {{1024, 1024, 1024, "square"}, {4096, 4096, 4096, "square"}};
    llm = {{4096, 6144, 4096, "llm"}};
    skinny = {{128, 8192, 8192, "skinny"}};
    odd = {{1000, 1000, 1000, "odd"}};
    midsize = {{1536, 1536, 1024, "midsize"}};
  }
  std::vector<Shape> out;
  auto add = [&out](const std::vector<Shape>& v) { out.insert(out.end(), v.begin(), v.end()); };
  if (suite == "default" || suite == "all") {
    add(square);
    add(seed);
    add(llm);
    add(skinny);
    add(odd);
    if (suite == "all") add(midsize);
  } else if (suite == "midsize") {
    add(midsize);
  } else if (suite == "square") {
    add(square);
  } else if (suite == "seed") {
    add(seed);
  } else if (suite == "llm") {
    add(llm);
  } else if (suite == "skinny") {
    add(skinny);
  } else if (suite == "odd") {
    add(odd);
  }
  return out;
}

bool parse_shape(std::string_view text, Shape* out) {
  std::int64_t v[3] = {0, 0, 0};
  int field = 0;
  bool digit = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      if (v[field] > (std::int64_t(1) << 40)) return false;
      v[field] = v[field] * 10 + (c - '0');
      digit = true;
    } else if ((c == 'x' || c == 'X') && digit && field < 2) {
      ++field;
      digit = false;
    } else {
      return false;
    }
  }
  if (field != 2 || !digit || v[0] <= 0 || v[1] <= 0 || v[2] <= 0) return false;
  *out = {v[0], v[1], v[2], "custom"};
  return true;
}

bool parse_layout(std::string_view layout, MatrixOrder* a, MatrixOrder* b) {
  if (layout.size() != 2) return false;
  auto letter = [](char c, MatrixOrder t_order, MatrixOrder n_order, MatrixOrder* out) {
    if (c == 't' || c == 'T') *out = t_order;
    else if (c == 'n' || c == 'N') *out = n_order;
    else return false;
    return true;
  };
  // op(A) = T: A stored K-contiguous (row-major M x K); op(B) = T: B stored
  // N-contiguous (row-major K x N).
  return letter(layout[0], MatrixOrder::row_major, MatrixOrder::col_major, a) &&
         letter(layout[1], MatrixOrder::row_major, MatrixOrder::col_major, b);
}

bool parse_beta(std::string_view text, float* out) {
  std::string const s(text);
  if (s.empty() || std::isspace(static_cast<unsigned char>(s.front()))) return false;
  char* end = nullptr;
  errno = 0;
  double const v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v) ||
      std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max()))
    return false;
  *out = static_cast<float>(v);
  return true;
}

bool parse_type(std::string_view name, DataType* out, DataType* accumulate) {
  if (accumulate != nullptr) *accumulate = DataType::f32;
  if (name == "f16acc" && accumulate != nullptr) {
    *out = DataType::f16;
    *accumulate = DataType::f16;
    return true;
  }
  if (name == "f32" || name == "fp32" || name == "float") *out = DataType::f32;
  else if (name == "tf32") *out = DataType::tf32;
  else if (name == "f16" || name == "fp16" || name == "half") *out = DataType::f16;
  else if (name == "bf16") *out = DataType::bf16;
  else return false;
  return true;
}

std::string type_label(const Problem& p) {
  if (p.type == DataType::f16 && p.accumulate == DataType::f16) return "f16acc";
  return std::string(to_string(p.type));
}

Status run_problem(const Problem& problem, const DeviceInfo& device, const Config& config,
                   CublasReference& cublas, std::string_view only_kernel, ProblemResult* out) {
  out->problem = problem;
  out->rows.clear();
  Shape const& sh = problem.shape;
  GemmArgs base;
  base.m = sh.m;
  base.n = sh.n;
  base.k = sh.k;
  base.batch_count = problem.batch_count;
  base.input = problem.type;
  base.accumulate = problem.accumulate;
  base.alpha = 1.0f;
  base.beta = problem.beta;
  if (!parse_layout(problem.layout, &base.a.order, &base.b.order))
    return {StatusCode::invalid_size, "unknown layout '" + problem.layout + "' (tn, nn, nt, tt)"};
  base.a.ld = base.a.order == MatrixOrder::row_major ? sh.k : sh.m;
  base.b.ld = base.b.order == MatrixOrder::row_major ? sh.n : sh.k;
  base.d.order = MatrixOrder::row_major;
  base.d.ld = sh.n;
  base.a.batch_stride = sh.m * sh.k;
  base.b.batch_stride = sh.k * sh.n;
  base.d.batch_stride = sh.m * sh.n;
  bool const reads_c = problem.beta != 0.0f;
  if (reads_c) base.c = {nullptr, base.d.order, base.d.ld, base.d.batch_stride};  // D's own buffer (args_for)
  DataType const out_type = resolved_output(base);
  std::int64_t const in_bytes = size_of(problem.type), out_bytes = size_of(out_type);
  std::int64_t const a_elems = sh.m * sh.k * problem.batch_count;
  std::int64_t const b_elems = sh.k * sh.n * problem.batch_count;
  std::int64_t const d_elems = sh.m * sh.n * problem.batch_count;
  std::int64_t const set_bytes = (a_elems + b_elems) * in_bytes;
  // Before the operands are allocated, so the first call has the free memory.
  out->copy_gbps = copy_bandwidth_gbps(device);

  // NOTE: enough input sets that one pass over them is twice the L2, so each
  // timed run reads A and B from DRAM as a cold GEMM would.
  std::int64_t sets = std::clamp<std::int64_t>((2 * device.l2_bytes + set_bytes - 1) / set_bytes, 1, 64);
  std::vector<DeviceBuffer> a(sets), b(sets);
  DeviceBuffer d;
  for (std::int64_t i = 0; i < sets; ++i) {
    if (Status s = a[i].allocate(a_elems * in_bytes); !s.ok()) return s;
    if (Status s = b[i].allocate(b_elems * in_bytes); !s.ok()) return s;
    if (Status s = fill_random(a[i].ptr, a_elems, problem.type, 1000 + 2 * i); !s.ok()) return s;
    if (Status s = fill_random(b[i].ptr, b_elems, problem.type, 1001 + 2 * i); !s.ok()) return s;
  }
  if (Status s = d.allocate(d_elems * out_bytes); !s.ok()) return s;
  // beta != 0: C's values, copied into D before each checked run.
  DeviceBuffer c0;
  if (reads_c) {
    if (Status s = c0.allocate(d_elems * out_bytes); !s.ok()) return s;
    if (Status s = fill_random(c0.ptr, d_elems, out_type, 999); !s.ok()) return s;
  }
  if (Status s = cuda_check(cudaDeviceSynchronize(), "fill inputs"); !s.ok()) return s;

  auto args_for = [&](int set) {
    GemmArgs g = base;
    g.a.data = a[set % sets].ptr;
    g.b.data = b[set % sets].ptr;
    g.d.data = d.ptr;
    if (reads_c) g.c.data = d.ptr;
    return g;
  };
  cudaStream_t const stream = nullptr;
  double const flop = 2.0 * sh.m * sh.n * sh.k * problem.batch_count;
  std::vector<std::int64_t> const rows = sample_rows(sh.m, config.check_rows);

  // Verify on set 0 (poisoned D), then time. Both cuBLAS and Tessera.
  // `paired`: time interleaved with cuBLAS and take the ratio from those
  // interleaved runs (Measurement::ratio_to_cublas).
  std::function<Status(int)> const cublas_run = [&](int i) { return cublas.run(args_for(i), stream); };
  double cublas_alone_ms = 0;  // the cuBLAS row's median, once measured
  auto measure = [&](const std::string& impl, const std::function<Status(const GemmArgs&)>& launch,
                     Measurement* m, bool paired = false) {
    m->impl = impl;
    m->error_bound = error_bound(base);
    GemmArgs const g0 = args_for(0);
    // beta != 0: D starts as C (in place), and the check reads C from c0,
    // which still holds those values. An element the launch does not write
    // keeps C's value and fails the check as poison would.
    Status s = reads_c ? cuda_check(cudaMemcpyAsync(d.ptr, c0.ptr, static_cast<size_t>(d_elems * out_bytes),
                                                    cudaMemcpyDeviceToDevice, stream),
                                    "copy C into D")
                       : poison(d.ptr, d_elems * out_bytes, stream);
    if (s.ok()) s = launch(g0);
    if (s.ok()) s = cuda_check(cudaStreamSynchronize(stream), impl.c_str());
    ErrorStats stats;
    GemmArgs checked = g0;
    if (reads_c) checked.c.data = c0.ptr;
    if (s.ok()) s = check_against_fp64(checked, rows, &stats, stream);
    if (!s.ok()) {
      m->note = s.message;
      return;
    }
    m->error = stats.error();
    double cublas_ms = 0;
    s = time_runs([&](int i) { return launch(args_for(i)); }, config, stream, m, paired ? &cublas_run : nullptr,
                  &cublas_ms);
    if (s.ok() && paired && cublas_ms > 0 && m->median_ms > 0) {
      m->ratio_to_cublas = cublas_ms / m->median_ms;
      // The cuBLAS rate the ratio compares with (the cuBLAS row was timed
      // alone, before any Tessera row, and may differ from it).
      char buf[64];
      std::snprintf(buf, sizeof buf, "cuBLAS %.1f interleaved", flop / (cublas_ms * 1e-3) / 1e12);
      m->note = m->note.empty() ? buf : m->note + "; " + buf;
      // NOTE: cuBLAS on 1024^3 ran at 126-143 TFLOP/s in some rows and
      // 211-253 in others on the H100s of runs 26-32 (docs/performance.md,
      // "Benchmark method"): flag a ratio whose cuBLAS partner strays more
      // than 15% from the cuBLAS row.
      if (cublas_alone_ms > 0) {
        double const drift = cublas_ms / cublas_alone_ms;
        if (drift > 1.15 || drift < 1.0 / 1.15) {
          std::snprintf(buf, sizeof buf, "UNSTEADY cuBLAS (%.1f in its own row): ratio suspect",
                        flop / (cublas_alone_ms * 1e-3) / 1e12);
          m->note += std::string("; ") + buf;
        }
      }
    }
    if (!s.ok()) {
      m->note = s.message;
      return;
    }
    m->tflops = flop / (m->median_ms * 1e-3) / 1e12;
    double const peak = device.peak_tflops(problem.type);
    m->pct_of_peak = peak > 0 ? 100.0 * m->tflops / peak : 0;
    if (out->copy_gbps > 0)
      m->pct_of_bandwidth = 100.0 * static_cast<double>(set_bytes) / (m->median_ms * 1e-3) /
                            (out->copy_gbps * 1e9);
    if (!(m->error <= m->error_bound)) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "error %.3g above bound %.0e", m->error, m->error_bound);
      m->note = buf + (m->note.empty() ? "" : "; " + m->note);
      return;
    }
    m->ok = true;
  };

  auto progress = [&](const Measurement& m) {
    if (!config.verbose) return;
    std::fprintf(stderr, "[bench] %lldx%lldx%lld %s %s %-24s %8.2f TFLOP/s %s%s\n",
                 static_cast<long long>(sh.m), static_cast<long long>(sh.n),
                 static_cast<long long>(sh.k), type_label(problem).c_str(),
                 problem.layout.c_str(), m.impl.c_str(), m.tflops, m.ok ? "ok" : "FAIL",
                 m.note.empty() ? "" : (" (" + m.note + ")").c_str());
  };

  Measurement cub;
  measure("cublas", [&](const GemmArgs& g) { return cublas.run(g, stream); }, &cub);
  cub.ratio_to_cublas = cub.tflops > 0 ? 1.0 : 0.0;
  cublas_alone_ms = cub.median_ms;
  progress(cub);
  out->rows.push_back(cub);

  if (only_kernel == "none") return {};

  GemmCallPlan plan;
  bool const planned =
      select_gemm_call(args_for(0), device.sm, GemmOptions{}, &plan).ok() && plan.kernel != nullptr;

  // The public call as a user makes it: kernel choice, any repack of operands
  // the fast kernels cannot read, and the kernel, all inside the timed region.
  if (only_kernel.empty()) {
    if (planned) {
      Measurement m;
      m.note = "runs " + std::string(plan.kernel->info.name);
      if (plan.copies_a || plan.copies_b)
        m.note += std::string(" after repacking ") + (plan.copies_a && plan.copies_b ? "A and B" : plan.copies_a ? "A" : "B");
      fill_resources(*plan.kernel, args_for(0), device, &m);
      measure("tessera::gemm", [&](const GemmArgs& g) { return gemm(g, stream, GemmOptions{}); }, &m, true);
      progress(m);
      out->rows.push_back(m);
    }
  }

  // The `*` row: the kernel tessera::gemm runs on these operands as they are.
  // After a repack it runs on copies, which no kernel row below times; the
  // "tessera::gemm" row's note names that kernel instead.
  const GemmKernel* const chosen =
      planned && !plan.copies_a && !plan.copies_b ? plan.kernel : nullptr;
  for (const GemmKernel& kernel : gemm_kernels()) {
    if (!only_kernel.empty() && kernel.info.name != only_kernel) continue;
    if (std::find(config.skip_kernels.begin(), config.skip_kernels.end(), kernel.info.name) !=
        config.skip_kernels.end())
      continue;
    GemmArgs const g0 = args_for(0);
    Status const runs_here = validate_kernel_device(kernel, device.sm);
    if (!runs_here.ok() || !kernel.can_implement(g0)) {
      if (!only_kernel.empty()) {
        Measurement m;
        m.impl = std::string(kernel.info.name);
        m.note = !runs_here.ok() ? runs_here.message : "cannot implement this problem";
        out->rows.push_back(m);
      }
      continue;
    }
    Measurement m;
    m.default_choice = chosen == &kernel;
    fill_resources(kernel, g0, device, &m);
    GemmOptions opts;
    opts.kernel = kernel.info.name;
    bool first = true;
    // The first (verified) launch goes through tessera::gemm with all its
    // checks; timed launches call the kernel's launch directly, so a row per
    // kernel shows that kernel alone on the operands as given (the
    // "tessera::gemm" row above times the whole public call).
    measure(std::string(kernel.info.name),
            [&](const GemmArgs& g) {
              if (first) {
                first = false;
                return gemm(g, stream, opts);
              }
              return kernel.launch(g, stream);
            },
            &m, true);
    progress(m);
    out->rows.push_back(m);
  }
  if (!only_kernel.empty() && out->rows.size() == 1)
    return {StatusCode::unknown_kernel, "no kernel named '" + std::string(only_kernel) + "'"};
  return {};
}

double measure_copy_bandwidth_gbps(std::int64_t bytes) {
  DeviceBuffer src, dst;
  if (!src.allocate(bytes).ok() || !dst.allocate(bytes).ok()) return 0;
  cudaMemset(src.ptr, 1, static_cast<size_t>(bytes));
  Config config;
  config.verbose = false;
  Measurement m;
  Status const s = time_runs(
      [&](int) {
        return cuda_check(cudaMemcpyAsync(dst.ptr, src.ptr, static_cast<size_t>(bytes),
                                          cudaMemcpyDeviceToDevice, nullptr),
                          "cudaMemcpyAsync");
      },
      config, nullptr, &m);
  if (!s.ok() || m.median_ms <= 0) return 0;
  return 2.0 * static_cast<double>(bytes) / (m.median_ms * 1e-3) / 1e9;
}

double copy_bandwidth_gbps(const DeviceInfo& device) {
  // NOTE: 4x the L2 (and at least 512 MiB) so the copy streams DRAM, not L2;
  // src + dst take at most half the free memory.
  static double const gbps = [&device] {
    std::int64_t bytes = std::max<std::int64_t>(4 * device.l2_bytes, std::int64_t{512} << 20);
    size_t free_bytes = 0, total_bytes = 0;
    if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
      bytes = std::min(bytes, static_cast<std::int64_t>(free_bytes / 4));
    else
      cudaGetLastError();
    return bytes > 0 ? measure_copy_bandwidth_gbps(bytes) : 0.0;
  }();
  return gbps;
}

void warm_up_gpu(const DeviceInfo& device, CublasReference& cublas) {
  (void)measure_cublas_tflops(device, DataType::bf16, 4096, cublas);
}

double measure_cublas_tflops(const DeviceInfo& device, DataType type, std::int64_t size,
                             CublasReference& cublas) {
  Problem p;
  p.shape = {size, size, size, "ceiling"};
  p.type = type;
  p.layout = "tn";
  Config config;
  config.verbose = false;
  ProblemResult r;
  if (!run_problem(p, device, config, cublas, "none", &r).ok() || r.rows.empty()) return 0;
  return r.rows.front().tflops;
}

}  // namespace tessera::bench
