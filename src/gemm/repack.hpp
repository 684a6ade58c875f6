// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Repacking A and B for kernels that need 16-byte aligned rows (the "any-ld
// fast path", docs/gemm.md). Host-only planning: which operand is copied, in
// which order, where in the workspace, and the GemmArgs the kernel then sees.
// The copy kernel itself is in src/gemm/kernels/sm80_repack.cu (its entry
// point, launch_repack, is declared here).
#pragma once

#include <cstddef>
#include <cstdint>

#include "tessera/gemm/api.hpp"

namespace tessera::detail {

// Bytes a fast-kernel row must be aligned to (cp.async 16 / TMA).
inline constexpr std::int64_t kRepackAlign = 16;
// Alignment of each operand's block inside the workspace.
inline constexpr std::size_t kRepackBlockAlign = 256;

// Whether every row of `desc` starts `bytes`-aligned: base pointer, ld and
// (for batch_count > 1) batch stride multiples of `bytes`.
[[nodiscard]] inline bool operand_aligned(const MatrixDesc& desc, std::int64_t elem_bytes, std::int64_t batch_count,
                                          std::int64_t bytes) {
  if (reinterpret_cast<std::uintptr_t>(desc.data) % std::uintptr_t(bytes) != 0) return false;
  if ((desc.ld * elem_bytes) % bytes != 0) return false;
  if (batch_count > 1 && (desc.batch_stride * elem_bytes) % bytes != 0) return false;
  return true;
}

// Whether the 16-byte load paths can read `desc` as it is.
[[nodiscard]] inline bool operand_aligned16(const MatrixDesc& desc, std::int64_t elem_bytes,
                                            std::int64_t batch_count) {
  return operand_aligned(desc, elem_bytes, batch_count, kRepackAlign);
}

// What to do with one operand.
enum class RepackTarget : std::uint8_t {
  keep,        // read it where it is
  same_order,  // copy it, same order, rows padded
  k_major,     // copy it K-major (A row-major, B column-major), rows padded
  mn_major,    // copy it M/N-major (A column-major, B row-major), rows padded
};

// One operand's copy. The copy is stored as `rows` rows of `cols` elements
// with row pitch `ld` (a multiple of 16 bytes; columns [cols, ld) are zero):
// dst(r, c) = src[b*src_batch + r*src_row + c*src_col] for each of `matrices`
// matrices, dst batch pitch `batch_stride` elements.
struct PackedOperand {
  bool active = false;
  MatrixOrder order = MatrixOrder::row_major;  // the copy's order as a GEMM operand
  std::int64_t rows = 0, cols = 0, ld = 0;
  std::int64_t matrices = 0, batch_stride = 0;
  std::size_t offset = 0, bytes = 0;  // inside the workspace
  const void* src = nullptr;
  std::int64_t src_row = 0, src_col = 0, src_batch = 0;
};

struct RepackPlan {
  PackedOperand a, b;
  std::int64_t elem_bytes = 0;
  std::size_t bytes = 0;  // workspace needed (0: nothing to copy)
};

[[nodiscard]] inline std::int64_t round_up(std::int64_t x, std::int64_t m) { return (x + m - 1) / m * m; }

// `name` is 'A' (logical M x K) or 'B' (logical K x N).
[[nodiscard]] inline PackedOperand plan_operand(char name, const MatrixDesc& desc, std::int64_t m_or_k,
                                                std::int64_t k_or_n, std::int64_t elem_bytes,
                                                std::int64_t batch_count, RepackTarget target) {
  PackedOperand p;
  if (target == RepackTarget::keep) return p;
  p.active = true;
  MatrixOrder const k_major = name == 'A' ? MatrixOrder::row_major : MatrixOrder::col_major;
  MatrixOrder const mn_major = name == 'A' ? MatrixOrder::col_major : MatrixOrder::row_major;
  p.order = target == RepackTarget::k_major ? k_major : target == RepackTarget::mn_major ? mn_major : desc.order;
  // Logical element (i, j) of the (m_or_k x k_or_n) operand lives at
  // src[i*s_i + j*s_j].
  bool const row = desc.order == MatrixOrder::row_major;
  std::int64_t const s_i = row ? desc.ld : 1;
  std::int64_t const s_j = row ? 1 : desc.ld;
  if (p.order == MatrixOrder::row_major) {
    p.rows = m_or_k;
    p.cols = k_or_n;
    p.src_row = s_i;
    p.src_col = s_j;
  } else {
    p.rows = k_or_n;
    p.cols = m_or_k;
    p.src_row = s_j;
    p.src_col = s_i;
  }
  p.ld = round_up(p.cols, kRepackAlign / elem_bytes);
  bool const per_batch = batch_count > 1 && desc.batch_stride != 0;
  p.matrices = per_batch ? batch_count : 1;
  p.batch_stride = per_batch ? p.rows * p.ld : 0;
  p.src_batch = per_batch ? desc.batch_stride : 0;
  p.src = desc.data;
  p.bytes = static_cast<std::size_t>(p.matrices * p.rows * p.ld * elem_bytes);
  return p;
}

[[nodiscard]] inline RepackPlan plan_repack(const GemmArgs& args, RepackTarget a, RepackTarget b) {
  RepackPlan plan;
  plan.elem_bytes = size_of(args.input);
  plan.a = plan_operand('A', args.a, args.m, args.k, plan.elem_bytes, args.batch_count, a);
  plan.b = plan_operand('B', args.b, args.k, args.n, plan.elem_bytes, args.batch_count, b);
  std::size_t at = 0;
  for (PackedOperand* p : {&plan.a, &plan.b}) {
    if (!p->active) continue;
    p->offset = at;
    at += (p->bytes + kRepackBlockAlign - 1) / kRepackBlockAlign * kRepackBlockAlign;
  }
  plan.bytes = at;
  return plan;
}

// The problem the kernel runs once the copies are in `workspace`.
[[nodiscard]] inline GemmArgs packed_args(const GemmArgs& args, const RepackPlan& plan, void* workspace) {
  GemmArgs g = args;
  auto apply = [workspace](MatrixDesc& d, const PackedOperand& p) {
    if (!p.active) return;
    d.data = static_cast<const char*>(workspace) + p.offset;
    d.order = p.order;
    d.ld = p.ld;
    d.batch_stride = p.batch_stride;
  };
  apply(g.a, plan.a);
  apply(g.b, plan.b);
  return g;
}

// Enqueue the copy of one operand into `workspace` (+ p.offset) on `stream`.
// elem_bytes is 2 or 4. Defined in src/gemm/kernels/sm80_repack.cu.
Status launch_repack(const PackedOperand& p, std::int64_t elem_bytes, void* workspace, gemm_stream_t stream);

}  // namespace tessera::detail
