// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// sm80_tensorop: the registry face of the Ampere tensor-core GEMM
// (include/tessera/gemm/sm80_tensorop.cuh). Maps a GemmArgs onto the kernel's
// orientation (D row-major; a column-major D is computed as D^T = B^T A^T),
// picks the variant (tile, access width) and launches it. The instantiations
// are in sm80_tensorop_{f16,bf16,f16acc,tf32}.cu.
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>
#include <string>

#include <tessera/gemm/sm80_tensorop.hpp>
#include <tessera/tma/tensor_map.hpp>

#include "gemm/launch_cache.hpp"
#include "gemm/split_k.hpp"
#include "gemm/tma_element_type.hpp"

namespace tessera::kernels {
namespace {

using sm80::Launch;
using sm80::OutputType;
using sm80::Params;

constexpr std::int64_t kMaxGridY = 65535;

bool aligned16(const void* p, std::int64_t ld, std::int64_t batch_stride, std::int64_t batch_count,
               std::int64_t elem_bytes) {
  if (reinterpret_cast<std::uintptr_t>(p) % 16 != 0) return false;
  if ((ld * elem_bytes) % 16 != 0) return false;
  if (batch_count > 1 && (batch_stride * elem_bytes) % 16 != 0) return false;
  return true;
}

// The problem in kernel orientation plus what the variant choice needs.
struct Prepared {
  Params p{};
  bool a_k_major = true, b_k_major = true;
  bool operands_aligned16 = false;
  int elem_bytes = 2;
};

bool kinds_supported(const GemmArgs& args) {
  DataType const out = resolved_output(args);
  if (!supported_types(args.input, out, args.accumulate)) return false;
  switch (args.input) {
    case DataType::f16:
    case DataType::bf16:
    case DataType::tf32: return true;
    default: return false;  // full-precision f32 has no mma.sync path here
  }
}

Prepared prepare(const GemmArgs& args) {
  Prepared r;
  bool const swap = args.d.order == MatrixOrder::col_major;
  const MatrixDesc& ka = swap ? args.b : args.a;  // kernel A: (M', K)
  const MatrixDesc& kb = swap ? args.a : args.b;  // kernel B: (K, N')
  // Kernel A(i,k) is K-major when its k index is contiguous.
  r.a_k_major = swap ? args.b.order == MatrixOrder::col_major : args.a.order == MatrixOrder::row_major;
  r.b_k_major = swap ? args.a.order == MatrixOrder::row_major : args.b.order == MatrixOrder::col_major;

  std::int64_t const in_bytes = size_of(args.input);
  DataType const out = resolved_output(args);
  std::int64_t const out_bytes = size_of(out);
  r.elem_bytes = int(in_bytes);

  Params& p = r.p;
  p.m = int(swap ? args.n : args.m);
  p.n = int(swap ? args.m : args.n);
  p.k = int(args.k);
  p.batch_count = int(args.batch_count);
  p.a = ka.data;
  p.lda = ka.ld;
  p.batch_a = ka.batch_stride;
  p.b = kb.data;
  p.ldb = kb.ld;
  p.batch_b = kb.batch_stride;
  p.batch_c = args.c.batch_stride;
  p.batch_d = args.d.batch_stride;

  sm80::EpilogueParams& e = p.epi;
  e.d = args.d.data;
  e.ldd = args.d.ld;
  e.alpha = args.alpha;
  e.beta = args.beta;
  e.out = out == DataType::f16 ? OutputType::f16 : out == DataType::bf16 ? OutputType::bf16 : OutputType::f32;
  bool const read_c = args.beta != 0.0f;
  e.c = read_c ? args.c.data : nullptr;
  // C(i,j) in kernel orientation: contiguous along j when C is stored like D.
  bool const c_like_d = args.c.order == args.d.order;
  e.c_row = c_like_d ? args.c.ld : 1;
  e.c_col = c_like_d ? 1 : args.c.ld;
  e.d_vec_ok = aligned16(args.d.data, args.d.ld, args.d.batch_stride, args.batch_count, out_bytes);
  e.c_vec_ok = read_c && c_like_d && aligned16(args.c.data, args.c.ld, args.c.batch_stride, args.batch_count, out_bytes);

  r.operands_aligned16 = args.k == 0 || (aligned16(ka.data, ka.ld, ka.batch_stride, args.batch_count, in_bytes) &&
                                         aligned16(kb.data, kb.ld, kb.batch_stride, args.batch_count, in_bytes));
  return r;
}

Launch select(const GemmArgs& args, const Prepared& r, Sm80Variant v) {
  if (is_tuning_variant(v)) {
    if (args.input != DataType::f16 || !r.a_k_major || !r.b_k_major) return {};
    return args.accumulate == DataType::f16 ? sm80::select_tuning_f16_f16acc(v) : sm80::select_tuning_f16_f32acc(v);
  }
  switch (args.input) {
    case DataType::f16:
      return args.accumulate == DataType::f16 ? sm80::select_f16_f16acc(r.a_k_major, r.b_k_major, v)
                                              : sm80::select_f16_f32acc(r.a_k_major, r.b_k_major, v);
    case DataType::bf16: return sm80::select_bf16_f32acc(r.a_k_major, r.b_k_major, v);
    case DataType::tf32: return sm80::select_tf32(r.a_k_major, r.b_k_major, v);
    default: return {};
  }
}

int device_attribute(cudaDeviceAttr attr) {
  int dev = 0, value = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return 0;
  if (cudaDeviceGetAttribute(&value, attr, dev) != cudaSuccess) return 0;
  return value;
}

// Dynamic shared memory of a variant (layout does not change it).
template <int kE>
int smem_bytes_of(Sm80Variant v) {
  using namespace sm80;
  switch (v) {
    case Sm80Variant::tile128x256: return ConfigTile128x256<kE, true, true>::kSmemBytes;
    case Sm80Variant::tile128x128: return ConfigTile128x128<kE, true, true>::kSmemBytes;
    case Sm80Variant::scalar: return ConfigScalar<kE, true, true>::kSmemBytes;
    case Sm80Variant::pipelined: return ConfigPipelined<kE, true, true>::kSmemBytes;
    case Sm80Variant::single_stage: return ConfigSingleStage<kE, true, true>::kSmemBytes;
    // The tiled kernel's tile and ring are the seed tile's (static_assert in sm80_tiled.cuh).
    case Sm80Variant::tiled: return ConfigTile128x128<kE, true, true>::kSmemBytes;
    case Sm80Variant::t128x128_s4: return ConfigT128x128S4<kE>::kSmemBytes;
    case Sm80Variant::t128x128_w8: return ConfigT128x128W8<kE>::kSmemBytes;
    case Sm80Variant::t128x256_s3: return ConfigT128x256S3<kE>::kSmemBytes;
    case Sm80Variant::t256x128_s3: return ConfigT256x128S3<kE>::kSmemBytes;
    case Sm80Variant::t256x128_s4: return ConfigT256x128S4<kE>::kSmemBytes;
    case Sm80Variant::t128x256_w4: return ConfigT128x256W4<kE>::kSmemBytes;
    case Sm80Variant::t128x128_spread: return ConfigT128x128Spread<kE>::kSmemBytes;
    case Sm80Variant::t128x256_spread: return ConfigT128x256Spread<kE>::kSmemBytes;
    case Sm80Variant::t128x256_w4s2: return ConfigT128x256W4S2<kE>::kSmemBytes;
    case Sm80Variant::t128x128_tma: return tma_ring_smem_bytes<ConfigTile128x128<kE, true, true>>();
    case Sm80Variant::t128x128_ws: return ws_ring_smem_bytes<ConfigTile128x128<kE, true, true>>();
    case Sm80Variant::automatic: return 0;
  }
  return 0;
}
int smem_bytes_of(int elem_bytes, Sm80Variant v) {
  return elem_bytes == 2 ? smem_bytes_of<2>(v) : smem_bytes_of<4>(v);
}

// NOTE: 128x256 (8 warps, 4 stages) for 16-bit inputs once it still fills
// every SM with at least one CTA; below that the 128x128 tile (2 CTAs/SM)
// keeps more SMs busy. The 128x256 tile needs 192 KiB of shared memory: an
// H100 (227 KiB per block) has it, an A100 (163 KiB) does not.
// Misaligned operands take the element-wide variant.
// NOTE: with f16 accumulation the seed tile stays: GPU run 2 (H200, seed
// problem) measured 128x128 3-stage at 422.5 TFLOP/s against 410.6 for
// 128x256 4-stage. (f32 accumulation has no such measurement yet; the
// 128x256 tile ran bf16 4096^3 at 422.0.) scripts/gpu/ampere.sh times every
// candidate; this rule follows its results.
// NOTE: on sm_90 devices f16 with f16 accumulation, both operands K-major,
// one matrix, K > 0, runs the seed tile fed by TMA (t128x128_tma): the same
// mma.sync mainloop with one thread issuing the loads instead of 16 LDGSTS
// per warp and k-tile. Session 39, run 324 (H200, seed_f16acc.sh, each
// variant interleaved with cuBLAS alone, L2 flushed, median of 200): f16 TN
// 5120x5120x4096 398.6 -> 453.2 TFLOP/s (0.620x -> 0.667x), 4224x4096x4096
// 402.8 -> 430.1 and 390.5 -> 430.1 (0.564x -> 0.608x). f32 accumulation has
// no measurement of it and keeps the rule below.
Sm80Variant choose(const GemmArgs& args, const Prepared& r) {
  if (!r.operands_aligned16) return Sm80Variant::scalar;
  if (args.input == DataType::f16 && args.accumulate == DataType::f16 && r.a_k_major && r.b_k_major &&
      args.batch_count == 1 && r.p.k > 0 && current_sm() / 10 == 9)
    return Sm80Variant::t128x128_tma;
  if (r.elem_bytes == 2 && args.accumulate != DataType::f16) {
    std::int64_t const wide_tiles = ((r.p.m + 127) / 128) * ((r.p.n + 255) / 256) * args.batch_count;
    if (wide_tiles >= device_attribute(cudaDevAttrMultiProcessorCount) &&
        smem_bytes_of(2, Sm80Variant::tile128x256) <= device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin))
      return Sm80Variant::tile128x256;
  }
  return Sm80Variant::tile128x128;
}

bool needs_alignment(Sm80Variant v) { return v != Sm80Variant::scalar; }

// The variants whose kernels compute one matrix and have no batch loop
// (sm80_tma_gemm.cuh, sm80_ws_gemm.cuh).
bool one_matrix_only(Sm80Variant v) { return v == Sm80Variant::t128x128_tma || v == Sm80Variant::t128x128_ws; }

// p.tiles_m / p.tiles_n for the tile of `l`; false when there are more
// tiles than a 1-D grid's int index holds.
bool set_tiles(Params& p, const Launch& l) {
  std::int64_t const tiles_m = (p.m + l.block_m - 1) / l.block_m;
  std::int64_t const tiles_n = (p.n + l.block_n - 1) / l.block_n;
  if (tiles_m * tiles_n > INT_MAX) return false;
  p.tiles_m = int(tiles_m);
  p.tiles_n = int(tiles_n);
  return true;
}

Status fail(StatusCode code, std::string message) {
  return Status{code, "sm80_tensorop: " + std::move(message)};
}

// NOTE: the tail split. With two CTAs of the seed tile per SM, 5120x5120
// has 1600 tiles on 264 slots of an H100: 6 full waves and 16 tiles, so
// the seventh wave runs 16 CTAs while 248 slots idle (~10% of the time).
// Cutting those 16 tiles into K-slices spreads them over the idle slots;
// each slice adds its f32 sums into the tile's buffer in L2 and the last
// one writes D (sm80_split.hpp). The rule is the Hopper kernel's
// (choose_tail_splits: a last wave at most half full, 64-element k-tiles as
// K-blocks) over the resident CTAs the occupancy API reports.
struct TailPlan {
  int splits = 1;  // 1: no split
  std::int64_t split_from = 0;
  std::int64_t per = 0;  // k-tiles per slice
};

// The split of a launch of `l` (tail_splits as sm80_tensorop_launch_variant
// takes it); splits == 1 for none. An error only when a split was asked for
// that the variant cannot run.
Status plan_tail_split(const GemmArgs& args, const Params& p, const Launch& l, int elem_bytes, int tail_splits,
                       TailPlan& plan) {
  plan = {};
  if (tail_splits == 1 || args.batch_count != 1 || p.k == 0) return {};
  if (l.split_function == nullptr) {
    if (tail_splits == kSm80TailSplitAuto) return {};
    return fail(StatusCode::cannot_implement,
                "a tail split exists for the 128x128 tiles with both operands K-major and 16-byte aligned only");
  }
  std::int64_t const tiles = std::int64_t(p.tiles_m) * p.tiles_n;
  int const block_k = 128 / elem_bytes;  // every configuration's k-tile spans 128 bytes (Sm80TileConfig)
  std::int64_t const k_tiles = (p.k + block_k - 1) / block_k;
  int const sms = device_attribute(cudaDevAttrMultiProcessorCount);
  // The occupancy of a kernel depends on its shared-memory attributes: set
  // them first (also what the split launch needs). Failing, run unsplit.
  if (detail::set_smem_attributes_once(l.split_function, l.smem_bytes) != 0) return {};
  std::int64_t const slots = std::int64_t(sms) * detail::resident_ctas_per_sm(l.split_function, l.threads, l.smem_bytes);
  if (slots <= 0) return {};
  int s = tail_splits > 1 ? tail_splits : detail::choose_tail_splits(tiles, k_tiles, int(slots));
  std::int64_t const split_from = tiles - tiles % slots;  // 0 when less than one wave
  // The automatic count keeps one slice CTA per SM (two CTAs of the seed
  // tile share an SM otherwise).
  if (tail_splits == kSm80TailSplitAuto) s = detail::one_slice_per_sm(s, tiles, slots, sms);
  if (s < 2 || split_from == tiles || tiles - split_from > detail::kCounterSlots) return {};
  // Equal k-tile counts per slice, the last one shorter; none empty.
  std::int64_t const per = (k_tiles + s - 1) / s;
  s = int((k_tiles + per - 1) / per);
  if (s < 2) return {};
  plan.splits = s;
  plan.split_from = split_from;
  plan.per = per;
  return {};
}

// The tensor maps of a TMA-fed launch (Launch::tma_maps,
// sm80_tma_gemm.cuh): kernel-orientation A (M' x K) and B (N' x K), both
// K-major, as (K, rows) with boxes of (BLK_K, BLK_M / BLK_N) and the 128B
// swizzle. Refused off sm_90, for batches and for K == 0. (select() has
// already refused other operand orders and types: the tuning variants are
// f16 TN.)
Status encode_operand_maps(const GemmArgs& args, const Prepared& r, const Launch& l, CUtensorMap* map_a,
                           CUtensorMap* map_b) {
  std::string why;
  int const sm = current_sm(&why);
  if (sm / 10 != 9)
    return fail(StatusCode::cannot_implement,
                "a TMA-fed variant runs on sm_90 devices only; this device is " +
                    (sm > 0 ? "sm_" + std::to_string(sm) : "unknown (" + why + ")"));
  if (args.batch_count != 1)
    return fail(StatusCode::cannot_implement, "a TMA-fed variant computes one matrix, not batches");
  if (r.p.k <= 0) return fail(StatusCode::cannot_implement, "a TMA-fed variant needs K > 0");
  tma::TiledDesc d;
  d.type = detail::tma_element_type(args.input);
  d.elem_bytes = r.elem_bytes;
  d.rank = 2;
  d.swizzle = tma::Swizzle::b128;
  d.dims[0] = std::uint64_t(r.p.k);
  d.box[0] = std::uint32_t(128 / r.elem_bytes);  // BLK_K: one 128-byte row of the ring
  auto encode = [&](CUtensorMap* map, const void* base, std::int64_t ld, int rows, int box_rows, const char* name) {
    d.base = base;
    d.dims[1] = std::uint64_t(rows);
    d.strides[0] = std::uint64_t(ld * r.elem_bytes);
    d.box[1] = std::uint32_t(box_rows);
    tma::EncodeResult const e = tma::encode_tiled(map, d);
    return e.ok ? Status{} : fail(StatusCode::cannot_implement, std::string(name) + ": " + e.message);
  };
  if (Status st = encode(map_a, r.p.a, r.p.lda, r.p.m, l.block_m, "A"); !st.ok()) return st;
  return encode(map_b, r.p.b, r.p.ldb, r.p.n, l.block_n, "B");
}

Status launch_prepared(const GemmArgs& args, Prepared& r, Sm80Variant v, gemm_stream_t stream, int raster_group,
                       int tail_splits) {
  if (needs_alignment(v) && !r.operands_aligned16)
    return fail(StatusCode::cannot_implement,
                std::string("variant ") + to_string(v) +
                    " needs 16-byte aligned A/B pointers, leading dimensions and batch strides");
  // (The TMA-fed variant says so in encode_operand_maps, after its device check.)
  if (v == Sm80Variant::t128x128_ws && args.batch_count != 1)
    return fail(StatusCode::cannot_implement, "variant t128x128_ws computes one matrix, not batches");
  int const smem = smem_bytes_of(r.elem_bytes, v);
  int const smem_limit = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  if (smem > smem_limit)
    return fail(StatusCode::cannot_implement,
                std::string("variant ") + to_string(v) + " needs " + std::to_string(smem) +
                    " bytes of shared memory per block, the device allows " + std::to_string(smem_limit));
  Launch const l = select(args, r, v);
  if (l.function == nullptr && v == Sm80Variant::tiled)
    return fail(StatusCode::cannot_implement,
                "variant tiled covers 16-bit (f16, bf16) inputs with both operands K-major (op(A) row-major and "
                "op(B) column-major for a row-major D, or the reverse for a column-major D) only");
  if (l.function == nullptr)
    return fail(StatusCode::cannot_implement,
                std::string("variant ") + to_string(v) + " is not instantiated for these types");
  CUtensorMap map_a{}, map_b{};
  if (l.tma_maps) {
    if (Status st = encode_operand_maps(args, r, l, &map_a, &map_b); !st.ok()) return st;
  }
  if (int const e = detail::set_smem_attributes_once(l.function, l.smem_bytes); e != 0)
    return fail(StatusCode::cuda_error, std::string("setting shared memory attributes failed: ") +
                                            cudaGetErrorString(static_cast<cudaError_t>(e)));
  if (!set_tiles(r.p, l)) return fail(StatusCode::cannot_implement, "too many tiles for a 1-D grid");
  r.p.raster_group = raster_group > 0 ? raster_group : sm80::kRasterGroupM;
  TailPlan plan;
  if (Status st = plan_tail_split(args, r.p, l, r.elem_bytes, tail_splits, plan); !st.ok()) return st;
  std::int64_t ctas = std::int64_t(r.p.tiles_m) * r.p.tiles_n;
  const void* function = l.function;
  if (plan.splits > 1) {
    std::int64_t const split_tiles = ctas - plan.split_from;
    detail::SplitkWorkspace const ws = detail::splitk_workspace(
        std::size_t(split_tiles) * std::size_t(l.block_m) * std::size_t(l.block_n) * sizeof(float), stream);
    if (ws.partial != nullptr) {  // without its workspace the launch runs unsplit
      r.p.splits = plan.splits;
      r.p.split_from = int(plan.split_from);
      r.p.split_k_tiles = int(plan.per);
      r.p.partial = ws.partial;
      r.p.counters = ws.counters;
      ctas = plan.split_from + split_tiles * plan.splits;
      function = l.split_function;
    }
  }
  if (ctas > INT_MAX) return fail(StatusCode::cannot_implement, "too many work units for a 1-D grid");
  dim3 const grid(unsigned(ctas),
                  unsigned(args.batch_count < kMaxGridY ? args.batch_count : kMaxGridY));
  void* kernel_args[] = {&r.p};
  void* tma_kernel_args[] = {&map_a, &map_b, &r.p};
  cudaError_t const err = cudaLaunchKernel(function, grid, dim3(unsigned(l.threads)),
                                           l.tma_maps ? tma_kernel_args : kernel_args, size_t(l.smem_bytes), stream);
  if (err != cudaSuccess) return fail(StatusCode::cuda_error, std::string("launch failed: ") + cudaGetErrorString(err));
  return {};
}

Status launch(const GemmArgs& args, gemm_stream_t stream) {
  return sm80_tensorop_launch_variant(args, Sm80Variant::automatic, stream);
}

// The instantiation `variant` runs for `args` (automatic: the chosen one);
// function == nullptr when it does not cover them (types, orders,
// alignment). What sm80_tensorop_launch_variant would launch, without the
// device queries.
Launch covering_launch(const GemmArgs& args, Sm80Variant variant) {
  if (!sm80_tensorop_can_implement(args)) return {};
  Prepared r = prepare(args);
  Sm80Variant const v = variant == Sm80Variant::automatic ? choose(args, r) : variant;
  if (needs_alignment(v) && !r.operands_aligned16) return {};
  if (one_matrix_only(v) && args.batch_count != 1) return {};
  return select(args, r, v);
}

GemmKernel::LaunchShape launch_shape(const GemmArgs& args) {
  return sm80_tensorop_variant_launch_shape(args, Sm80Variant::automatic);
}

}  // namespace

bool sm80_tensorop_can_implement(const GemmArgs& args) {
  if (!kinds_supported(args)) return false;
  if (args.m > INT_MAX || args.n > INT_MAX || args.k > INT_MAX - 256 || args.batch_count > INT_MAX) return false;
  return true;
}

Status sm80_tensorop_launch_variant(const GemmArgs& args, Sm80Variant variant, gemm_stream_t stream,
                                    int raster_group, int tail_splits) {
  if (tail_splits < 1 && tail_splits != kSm80TailSplitAuto)
    return fail(StatusCode::cannot_implement,
                "tail_splits must be kSm80TailSplitAuto (-1), 1 (never split) or a slice count >= 2, got " +
                    std::to_string(tail_splits));
  if (!sm80_tensorop_can_implement(args))
    return fail(StatusCode::cannot_implement, "needs f16, bf16 or tf32 inputs and sizes below 2^31");
  if (args.m == 0 || args.n == 0 || args.batch_count == 0) return {};
  Prepared r = prepare(args);
  Sm80Variant const v = variant == Sm80Variant::automatic ? choose(args, r) : variant;
  return launch_prepared(args, r, v, stream, raster_group, tail_splits);
}

Sm80Variant sm80_tensorop_chosen_variant(const GemmArgs& args) {
  if (!sm80_tensorop_can_implement(args)) return Sm80Variant::automatic;
  return choose(args, prepare(args));
}

bool sm80_tensorop_variant_covers(const GemmArgs& args, Sm80Variant variant) {
  return covering_launch(args, variant).function != nullptr;
}

GemmKernel::LaunchShape sm80_tensorop_variant_launch_shape(const GemmArgs& args, Sm80Variant variant) {
  Launch const l = covering_launch(args, variant);
  if (l.function == nullptr) return {};
  // The instantiation the launch runs: the split one when the automatic
  // tail split applies (it has its own registers).
  const void* function = l.function;
  if (l.split_function != nullptr && args.m > 0 && args.n > 0) {
    Prepared r = prepare(args);
    TailPlan plan;
    if (set_tiles(r.p, l) && plan_tail_split(args, r.p, l, r.elem_bytes, kSm80TailSplitAuto, plan).ok() &&
        plan.splits > 1)
      function = l.split_function;
  }
  return detail::ready_launch_shape({function, l.threads, l.smem_bytes});
}

GemmKernel gemm_kernel_sm80_tensorop() {
  GemmKernel k;
  k.info = {"sm80_tensorop", 80, 0,
            "mma.sync tensor cores (m16n8k16 f16/bf16, m16n8k8 tf32): 128x256x64 4-stage or 128x128 "
            "3-stage cp.async + ldmatrix (on sm_90, f16-accumulated TN: TMA loads), smem epilogue; every "
            "order, ld and alignment"};
  k.can_implement = &sm80_tensorop_can_implement;
  k.launch = &launch;
  k.launch_shape = &launch_shape;
  return k;
}

}  // namespace tessera::kernels
