// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The GEMM benchmark behind `tessera bench` and `tessera gemm`: every
// applicable Tessera kernel and cuBLAS on the same data, layout and run.
// Method (docs/performance.md, "Benchmark method"): random inputs, rotating
// input sets larger than twice the L2, warm-up, per-run CUDA events, median.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "device/device_query.hpp"
#include "reference/cublas_reference.hpp"
#include "tessera/gemm/api.hpp"

namespace tessera::bench {

struct Shape {
  std::int64_t m = 0, n = 0, k = 0;
  std::string group;  // square, seed, llm, skinny, odd, midsize
};

// Shapes of a suite: default (square, seed, llm, skinny and odd: the issue's
// suite), one of those groups alone, midsize, or all (default + midsize).
// `quick` keeps a small subset. Unknown suite: empty.
std::vector<Shape> suite_shapes(std::string_view suite, bool quick);

// "MxNxK" -> a Shape of group "custom". False (and *out untouched) unless it
// is three positive integers joined by 'x'.
bool parse_shape(std::string_view text, Shape* out);

// "1", "-0.5", "2e-1" -> a finite float. False (and *out untouched) for
// anything else: empty, trailing characters, inf, nan, out of float range.
bool parse_beta(std::string_view text, float* out);

// "tn" -> A row-major, B column-major, and so on (api.hpp). False if unknown.
bool parse_layout(std::string_view layout, MatrixOrder* a, MatrixOrder* b);
// "bf16", "f16", "f32", "tf32"; with `accumulate` given also "f16acc" (f16
// inputs and output, f16 accumulation: the seed's Ampere configuration),
// which sets *accumulate to f16 (f32 for every other name).
bool parse_type(std::string_view name, DataType* out, DataType* accumulate = nullptr);

struct Problem {
  Shape shape;
  DataType type = DataType::bf16;   // input; output = default for the input
  DataType accumulate = DataType::f32;  // f16 only with f16 inputs ("f16acc")
  std::string layout = "tn";
  std::int64_t batch_count = 1;
  // D = A B + beta C. Nonzero: C is D's own buffer (an in-place update, as
  // cuBLAS requires), filled with random values before each checked run;
  // the timed runs then keep updating D in place.
  float beta = 0.0f;
};

// The problem's type as the reports print it: the input type, or "f16acc".
std::string type_label(const Problem& p);

struct Config {
  int warmup_runs = 3;
  int min_runs = 20;
  int max_runs = 200;
  double seconds_per_kernel = 2.0;   // stop after this much timed work...
  double slow_seconds_per_kernel = 4.0;  // ...unless 20 runs would exceed it
  int slow_min_runs = 5;
  std::int64_t check_rows = 64;      // sampled rows of D for the fp64 check
  bool verbose = true;               // progress lines on stderr
  std::vector<std::string> skip_kernels;  // registered kernels not to run
  // Queue each batch of timed runs behind a gate kernel (queue_hold.hpp) so
  // that the intervals hold GPU time only; false: time runs as issued.
  bool queue_gate = true;
};

struct Measurement {
  std::string impl;          // kernel name or "cublas"
  // The kernel tessera::gemm runs without a name, on the operands as given;
  // no row is marked when the public call repacks A or B first.
  bool default_choice = false;
  bool ok = false;           // ran and passed the precision bound
  std::string note;          // failure text, or "N runs only (slow)"
  int runs = 0;
  double median_ms = 0, min_ms = 0, max_ms = 0;
  double tflops = 0;
  double ratio_to_cublas = 0;  // cuBLAS median / this median, both from runs interleaved with cuBLAS (cuBLAS row: 1)
  double pct_of_peak = 0;      // of DeviceInfo::peak_tflops(type)
  // Bytes of A and B (each read once, batch included) over the median time,
  // in % of ProblemResult::copy_gbps; -1 when not measured.
  double pct_of_bandwidth = -1;
  double error = 0;            // ||D - ref|| / ||ref|| over sampled rows
  double error_bound = 0;
  // Kernel resources (cudaFuncGetAttributes / occupancy); -1 for cuBLAS.
  int registers = -1, static_smem = -1, dynamic_smem = -1, threads = -1;
  int blocks_per_sm = -1;
  double occupancy = -1;       // resident threads / max threads per SM
};

struct ProblemResult {
  Problem problem;
  std::vector<Measurement> rows;  // cuBLAS first, then Tessera kernels
  double copy_gbps = 0;           // copy_bandwidth_gbps(), the %BW denominator
};

// The rotating input set of a row's j-th run (warm-up runs first). Alone, a
// row reads set j. Paired with cuBLAS (every run preceded by a cuBLAS run),
// the partner's j-th run reads set 2j and the row's set 2j + 1: over the
// interleaved stream the k-th run reads set k, so the two never read the
// same set back to back and a set returns only after all the others (one
// pass is at least twice the L2: cold). Sets are taken modulo their count.
constexpr std::int64_t partner_run_set(std::int64_t j) { return 2 * j; }
constexpr std::int64_t row_run_set(std::int64_t j, bool paired) { return paired ? 2 * j + 1 : j; }

// Runs one problem: cuBLAS, then `only_kernel` if non-empty, else every
// registered kernel that supports the device and can implement the problem.
Status run_problem(const Problem& problem, const DeviceInfo& device, const Config& config,
                   CublasReference& cublas, std::string_view only_kernel, ProblemResult* out);

// Measured ceilings for `tessera info`.
double measure_copy_bandwidth_gbps(std::int64_t bytes);  // (read + write) / time
// measure_copy_bandwidth_gbps over max(4 x L2, 512 MiB) per buffer (at most a
// quarter of the free memory each), measured on the first call and reused for
// the rest of the process; 0 when it cannot be measured.
double copy_bandwidth_gbps(const DeviceInfo& device);
// Keeps the GPU busy with cuBLAS bf16 4096^3 for about two seconds before
// the first measurement, so that the first problem is not timed on an idle
// GPU. NOTE: it did not cure what prompted it. Runs 30 and 31 (H100,
// 2026-11-22): cuBLAS on 1024^3, the first problem of the suite, ran at
// 126-143 TFLOP/s alone and interleaved with sm90_ws_gemm but at 220-224
// interleaved with the later rows (sm80_tensorop, simt_generic), with and
// without this warm-up; run 26 (another machine) measured it at 238-253.
// Cause unknown; the 1024^3 ratios of those runs (1.30-1.39x) are not
// trustworthy (hopper.sh, L2 flushed, same session: 0.93x).
void warm_up_gpu(const DeviceInfo& device, CublasReference& cublas);

double measure_cublas_tflops(const DeviceInfo& device, DataType type, std::int64_t size,
                             CublasReference& cublas);

// Output.
void print_header(const DeviceInfo& device, double measured_clock_mhz);
void print_table(const std::vector<ProblemResult>& results);
bool write_csv(const std::string& path, const DeviceInfo& device,
               const std::vector<ProblemResult>& results);
bool write_json(const std::string& path, const DeviceInfo& device, double measured_clock_mhz,
                const std::vector<ProblemResult>& results);
bool write_svg(const std::string& path, const DeviceInfo& device,
               const std::vector<ProblemResult>& results);

// Exit code of the tool commands when there is no CUDA device.
inline constexpr int kExitNoDevice = 3;

}  // namespace tessera::bench
