// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Device-side helpers for checking GEMM results: random fill, poisoning, an
// fp64 reference GEMM over (sampled) rows, and the relative error of D.
#pragma once

#include <cstdint>
#include <vector>

#include "tessera/gemm/api.hpp"

namespace tessera {

// Uniform values in [lo, hi) of type `type` (a counter-based hash of `seed`
// and the index, so the same seed gives the same data). Never all zeros.
Status fill_random(void* data, std::int64_t count, DataType type, std::uint64_t seed,
                   gemm_stream_t stream = nullptr, float lo = -1.0f, float hi = 1.0f);

// Sets every byte to 0xFF: NaN in f32, f16 and bf16, so an unwritten output
// element fails any comparison.
Status poison(void* data, std::int64_t bytes, gemm_stream_t stream = nullptr);

struct ErrorStats {
  double rel_norm_error = 0;  // ||D - ref|| / ||ref|| over the checked rows
  double max_abs_error = 0;
  double max_abs_ref = 0;
  std::int64_t non_finite = 0;  // NaN/Inf elements of D (includes unwritten)
  std::int64_t checked = 0;     // elements compared
  // ||D - ref|| / ||ref||, or +inf when any checked element is not finite.
  [[nodiscard]] double error() const;
};

// Rows of D to check: all when m <= max_rows, otherwise `max_rows` rows
// spread over [0, m) including the first and the last.
std::vector<std::int64_t> sample_rows(std::int64_t m, std::int64_t max_rows);

// Compares D (already computed, synchronised) against an fp64 GEMM of the same
// A, B, C over the given rows of every batch. C must still hold its input
// values (check out-of-place runs). Synchronises `stream`.
Status check_against_fp64(const GemmArgs& args, const std::vector<std::int64_t>& rows,
                          ErrorStats* stats, gemm_stream_t stream = nullptr);

// Copies an m x n matrix (element size 2 or 4 bytes) between two descriptors
// for `batch_count` batches.
Status copy_matrix(const MatrixDesc& src, const MutableMatrixDesc& dst, std::int64_t m,
                   std::int64_t n, std::int64_t batch_count, std::int64_t elem_bytes,
                   gemm_stream_t stream = nullptr);

// Precision bound for ||D - ref|| / ||ref|| (docs/performance.md): f32 1e-5,
// tf32 1e-3, f16 5e-3 (f16 accumulation 2e-2), bf16 1e-2. Output rounding to
// f16/bf16 is inside these bounds.
double error_bound(const GemmArgs& args);

}  // namespace tessera
