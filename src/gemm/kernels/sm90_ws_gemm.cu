// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// sm90_ws_gemm: the registry face of the Hopper warp-specialised GEMM
// (include/tessera/gemm/sm90_ws_gemm.cuh). Maps GemmArgs onto the kernel's
// orientation (D' = D, or D' = D^T = B^T A^T: by default when D is
// column-major, so that D' is row-major; the narrow variants choose the
// orientation that puts the small dimension on the tile's N side), encodes
// the TMA tensor maps and launches min(work units, SMs) persistent CTAs.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <string>

#include <tessera/arch/sm90/cluster_launch.hpp>
#include <tessera/arch/sm90/sm90a_image.cuh>
#include <tessera/gemm/sm90_ws_gemm.cuh>

#include "gemm/kernel_entry.hpp"
#include "gemm/launch_cache.hpp"
#include "gemm/registry.hpp"
#include "gemm/repack.hpp"
#include "gemm/split_k.hpp"
#include "gemm/tma_element_type.hpp"
#include "tma/tensor_map.hpp"

namespace tessera {
namespace {

using detail::kCounterSlots;
using detail::splitk_workspace;
using detail::SplitkWorkspace;
using kernels::sm90::WsGemmCluster2Config;
using kernels::sm90::WsGemmCluster2TmaStoreConfig;
using kernels::sm90::WsGemmConfig;
using kernels::sm90::WsGemmNarrowConfig;
using kernels::sm90::WsGemmNarrowTmaConfig;
using kernels::sm90::WsGemmParams;
using kernels::sm90::WsGemmPingPong128Config;
using kernels::sm90::WsGemmPingPong128Cluster2Config;
using kernels::sm90::WsGemmPingPong128Cluster2TmaStoreConfig;
using kernels::sm90::WsGemmPingPong64x128Cluster2Config;
using kernels::sm90::WsGemmPingPong64x128Cluster2TmaStoreConfig;
using kernels::sm90::WsGemmPingPong64x128Config;
using kernels::sm90::WsGemmPingPong64x128TmaStoreConfig;
using kernels::sm90::WsGemmPingPong64x128TmaStoreTransConfig;
using kernels::sm90::WsGemmPingPongConfig;
using kernels::sm90::WsGemmPingPong128TmaStoreConfig;
using kernels::sm90::WsGemmTmaStoreConfig;
using kernels::sm90::WsGemmTmaStoreReadCConfig;

Status ws_fail(StatusCode code, std::string message) {
  return Status{code, "sm90_ws_gemm: " + std::move(message)};
}

// Why this build cannot run the kernel on the current device, or null. The
// kernel's body exists only in the sm_90a image (elsewhere it traps), and a
// build whose CUDA architectures lack 90a hands an H100 sm_90 or PTX code.
// The probe (cudaFuncGetAttributes, which loads the module) runs once per
// device; a launch then costs a cudaGetDevice and a load. It answers for an
// sm_90 device only: elsewhere (no device, which validate_device reports, or
// another architecture, which the kernel's range excludes) it has nothing to
// add, so host-side selection for a given sm does not depend on it.
const char* missing_device_code() {
  constexpr int kDevices = 64;
  static std::atomic<signed char> known[kDevices] = {};  // 0 unknown, 1 nothing missing, -1 missing
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  bool const cached = device >= 0 && device < kDevices;
  signed char state = cached ? known[device].load(std::memory_order_relaxed) : 0;
  if (state == 0) {
    state = current_sm(nullptr) != 90 || arch::sm90a_image_loaded() ? 1 : -1;
    if (cached) known[device].store(state, std::memory_order_relaxed);
  }
  return state > 0 ? nullptr
                   : "this build has no sm_90a device code (its CUDA architectures lack 90a; wgmma, setmaxnreg and "
                     "the kernel body exist only there) [rebuild with 90a in CMAKE_CUDA_ARCHITECTURES]";
}

// tf32 operand orders. wgmma reads tf32 tiles K-major only, except A from
// registers: the launch orients the problem so that an MN-major operand is
// A' (default_variant). The narrow tiles of a skinny problem (one dimension
// <= 64, the other >= 1024) put the small dimension on N', so there the
// MN-major operand must be the large one. Empty when `args` (tf32) keeps
// these rules.
std::string tf32_mn_rule(const GemmArgs& args) {
  bool const a_mn = args.a.order == MatrixOrder::col_major, b_mn = args.b.order == MatrixOrder::row_major;
  if (a_mn && b_mn)
    return "tf32 reads at most one M/N-major operand (through registers, as wgmma's A); here A is column-major "
           "and B row-major, both M/N-major";
  if (!a_mn && !b_mn) return {};
  std::int64_t const small = std::min(args.m, args.n), big = std::max(args.m, args.n);
  std::int64_t const rows = a_mn ? args.m : args.n;  // of the M/N-major operand
  if (small <= 64 && big >= 1024 && rows == small)
    return "tf32: the M/N-major operand is the small side (" + std::to_string(rows) +
           " <= 64) of a skinny problem, which the narrow tiles put on wgmma's B, read K-major only";
  return {};
}

// The rule `args` breaks, or empty when the kernel can run it.
std::string unsupported_reason(const GemmArgs& args) {
  if (args.input != DataType::bf16 && args.input != DataType::f16 && args.input != DataType::tf32)
    return "needs bf16, f16 or tf32 inputs";
  DataType const out = resolved_output(args);
  if (args.accumulate == DataType::f16) {
    if (args.input != DataType::f16 || out != DataType::f16) return "f16 accumulation needs f16 inputs and an f16 output";
  } else if (args.accumulate != DataType::f32) {
    return "needs f32 accumulation, or f16 accumulation of f16 inputs";
  }
  if (args.input == DataType::tf32 && out != DataType::f32) return "tf32 inputs write f32";
  if (out != args.input && out != DataType::f32) return "output must be the input type or f32";
  if (args.k <= 0) return "needs k > 0";
  if (args.batch_count > INT_MAX) return "batch_count must be below 2^31";
  if (args.m > INT_MAX - 256 || args.n > INT_MAX - 256 || args.k > INT_MAX - 256) return "sizes must be below 2^31 - 256";
  // Any order for 16-bit inputs (wgmma reads MN-major tiles transposed).
  // tf32 has no transposed wgmma: an MN-major operand is read through
  // registers as wgmma's A (the RS form), so at most one may be MN-major,
  // and it must be the one the launch can put on A' (tf32_mn_rule).
  if (args.input == DataType::tf32) {
    if (std::string why = tf32_mn_rule(args); !why.empty()) return why;
  }
  auto mis16 = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 != 0; };
  if (mis16(args.a.data) || mis16(args.b.data)) return "TMA needs 16-byte aligned A and B base pointers";
  std::int64_t const e = size_of(args.input);
  if ((args.a.ld * e) % 16 != 0 || (args.b.ld * e) % 16 != 0)
    return "TMA needs leading dimensions of A and B that are multiples of 16 bytes";
  if (args.batch_count > 1 && ((args.a.batch_stride * e) % 16 != 0 || (args.b.batch_stride * e) % 16 != 0))
    return "TMA needs A and B batch strides that are multiples of 16 bytes";
  return {};
}

template <class TIn, class TOut, class Cfg, bool kF16Acc = false>
const void* kernel_fn() {
  return reinterpret_cast<const void*>(&kernels::sm90::ws_gemm_kernel<TIn, TOut, Cfg, kF16Acc>);
}

template <class Cfg = WsGemmConfig>
const void* function_for(const GemmArgs& args) {
  DataType const out = resolved_output(args);
  // The wide tiles with the TMA store exist for 16-bit inputs only (the
  // default takes them for those; tf32 keeps their direct-epilogue form,
  // uses_tma_store), so that their 25 kernels are not 30.
  if constexpr (Cfg::kWideTmaStore) {
    if (args.input == DataType::tf32) return nullptr;
  }
  if (args.accumulate == DataType::f16)
    return args.input == DataType::f16 && out == DataType::f16 ? kernel_fn<__half, __half, Cfg, true>() : nullptr;
  if (args.input == DataType::bf16)
    return out == DataType::f32 ? kernel_fn<__nv_bfloat16, float, Cfg>() : kernel_fn<__nv_bfloat16, __nv_bfloat16, Cfg>();
  if (args.input == DataType::f16)
    return out == DataType::f32 ? kernel_fn<__half, float, Cfg>() : kernel_fn<__half, __half, Cfg>();
  if constexpr (!Cfg::kTransTmaStore) {
    if (args.input == DataType::tf32 && out == DataType::f32) return kernel_fn<float, float, Cfg>();
  }
  return nullptr;
}

// The kernels of a configuration that exists for 16-bit outputs of the
// same type as the inputs only: bf16 -> bf16, f16 -> f16, and f16 -> f16
// with f16 accumulation (3 kernels, not 6).
template <class Cfg>
const void* same_16bit_kernel(const GemmArgs& args) {
  DataType const out = resolved_output(args);
  if (args.accumulate == DataType::f16)
    return args.input == DataType::f16 && out == DataType::f16 ? kernel_fn<__half, __half, Cfg, true>() : nullptr;
  if (args.input == DataType::bf16 && out == DataType::bf16) return kernel_fn<__nv_bfloat16, __nv_bfloat16, Cfg>();
  if (args.input == DataType::f16 && out == DataType::f16) return kernel_fn<__half, __half, Cfg>();
  return nullptr;
}

// The cooperative 128x256 TMA-store kernel that reads C: 16-bit outputs
// only (with_config).
template <>
const void* function_for<WsGemmTmaStoreReadCConfig>(const GemmArgs& args) {
  return same_16bit_kernel<WsGemmTmaStoreReadCConfig>(args);
}

// Ping-pong 64x128 writing a column-major D': 16-bit outputs only, the
// launch taking it for the transposed orientation, which f32 outputs
// refuse (uses_tma_store).
template <>
const void* function_for<WsGemmPingPong64x128TmaStoreTransConfig>(const GemmArgs& args) {
  return same_16bit_kernel<WsGemmPingPong64x128TmaStoreTransConfig>(args);
}

// Calls f.template operator()<Cfg>() with the configuration of `v` for
// `args` (TMA-store epilogue when uses_tma_store), or returns the rule the
// variant breaks. The cooperative 128x256 TMA-store kernel defers its 16-bit
// stores and reads no C, so a 16-bit output with beta != 0 takes
// WsGemmTmaStoreReadCConfig.
bool uses_tma_store(const detail::Sm90WsVariant& v, const GemmArgs& args);
// Whether the cooperative 128x256 TMA-store launch must read C through
// WsGemmTmaStoreReadCConfig: beta != 0 with a 16-bit output.
bool reads_c_16bit(const GemmArgs& args) { return args.beta != 0.0f && size_of(resolved_output(args)) == 2; }
template <class F>
Status with_config(const detail::Sm90WsVariant& v, const GemmArgs& args, F&& f) {
  bool const tma_store = uses_tma_store(v, args);
  if (v.cluster == 2) {
    if (v.pingpong && v.tile_m == 64)
      return tma_store ? f.template operator()<WsGemmPingPong64x128Cluster2TmaStoreConfig>()
                       : f.template operator()<WsGemmPingPong64x128Cluster2Config>();
    if (v.pingpong)
      return tma_store ? f.template operator()<WsGemmPingPong128Cluster2TmaStoreConfig>()
                       : f.template operator()<WsGemmPingPong128Cluster2Config>();
    return tma_store ? f.template operator()<WsGemmCluster2TmaStoreConfig>() : f.template operator()<WsGemmCluster2Config>();
  }
  if (!v.pingpong) {
    // 128 x 160..224: the TMA-store or the direct-epilogue configuration.
    auto wide = [&]<int kN>() {
      return tma_store ? f.template operator()<WsGemmNarrowTmaConfig<kN>>()
                       : f.template operator()<WsGemmNarrowConfig<kN>>();
    };
    switch (v.tile_n) {
      case 256:
        if (!tma_store) return f.template operator()<WsGemmConfig>();
        if (reads_c_16bit(args)) return f.template operator()<WsGemmTmaStoreReadCConfig>();
        return f.template operator()<WsGemmTmaStoreConfig>();
      case 224: return wide.template operator()<224>();
      case 208: return wide.template operator()<208>();
      case 192: return wide.template operator()<192>();
      case 176: return wide.template operator()<176>();
      case 160: return wide.template operator()<160>();
      case 128: return f.template operator()<WsGemmNarrowConfig<128>>();
      case 64: return f.template operator()<WsGemmNarrowConfig<64>>();
      case 32: return f.template operator()<WsGemmNarrowConfig<32>>();
      case 16: return f.template operator()<WsGemmNarrowConfig<16>>();
      default:
        return ws_fail(StatusCode::cannot_implement,
                       "cooperative tile_n must be 256, 224, 208, 192, 176, 160, 128, 64, 32 or 16");
    }
  }
  if (v.tile_n == 256) return f.template operator()<WsGemmPingPongConfig>();
  if (v.tile_n == 128 && v.tile_m == 64)
    return !tma_store   ? f.template operator()<WsGemmPingPong64x128Config>()
           : v.transpose ? f.template operator()<WsGemmPingPong64x128TmaStoreTransConfig>()
                         : f.template operator()<WsGemmPingPong64x128TmaStoreConfig>();
  if (v.tile_n == 128)
    return tma_store ? f.template operator()<WsGemmPingPong128TmaStoreConfig>()
                     : f.template operator()<WsGemmPingPong128Config>();
  return ws_fail(StatusCode::cannot_implement, "ping-pong tile_n must be 128 or 256");
}

int device_attribute(cudaDeviceAttr attr) {
  int dev = 0, value = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return 0;
  if (cudaDeviceGetAttribute(&value, attr, dev) != cudaSuccess) return 0;
  return value;
}

bool can_implement(const GemmArgs& args) { return detail::can_implement_sm90_ws_gemm(args); }

Status launch(const GemmArgs& args, gemm_stream_t stream) { return detail::launch_sm90_ws_gemm(args, stream); }

// Whether the kernel's A' (M', K) and B' (N', K) are K-contiguous when it
// computes D' = A' B'^T with D' row-major: D' = D (A' = A, B' = B^T) unless
// `swap`, then D' = D^T (A' = B^T, B' = A). A' = A is K-major when A is
// row-major, A' = B^T when B is column-major; B' = B^T when B is
// column-major, B' = A when A is row-major.
void kernel_k_major(const GemmArgs& args, bool swap, bool* a_km, bool* b_km) {
  *a_km = swap ? args.b.order == MatrixOrder::col_major : args.a.order == MatrixOrder::row_major;
  *b_km = swap ? args.a.order == MatrixOrder::row_major : args.b.order == MatrixOrder::col_major;
}

bool d_tma_storable(const GemmArgs& args);
bool c_tma_loadable(const GemmArgs& args);
bool uses_tma_store(const detail::Sm90WsVariant& v, const GemmArgs& args);

// The default variant for `args` on the current device.
detail::Sm90WsVariant default_variant(const GemmArgs& args) {
  bool swap = args.d.order == MatrixOrder::col_major;
  int sms = device_attribute(cudaDevAttrMultiProcessorCount);
  if (sms <= 0) sms = 132;
  std::int64_t const e = size_of(args.input);
  // The largest of 128, 64, 32 and 16 bytes that every row of A and B starts at.
  int row_align = 128;
  while (row_align > 16 && !(detail::operand_aligned(args.a, e, args.batch_count, row_align) &&
                             detail::operand_aligned(args.b, e, args.batch_count, row_align)))
    row_align /= 2;
  // tf32: an MN-major operand goes on A' (registers); B' is read K-major.
  bool const flip = detail::sm90_ws_transposes_for_tf32(args);
  if (flip) swap = !swap;
  bool a_km = true, b_km = true;
  kernel_k_major(args, swap, &a_km, &b_km);
  // beta != 0 with C loadable by TMA (c_tma_loadable holds beta != 0 too)
  // and D storable by it: the rule may take a TMA-store kernel where it
  // would take the direct epilogue at beta = 0 (its clause differs for
  // 16-bit and f32 outputs). That pick stands only if its kernel does store
  // by TMA for these arguments; otherwise the beta = 0 one.
  int const out_bytes = int(size_of(resolved_output(args)));
  bool const c_by_tma = c_tma_loadable(args) && d_tma_storable(args);
  auto pick = [&](bool c_tma) {
    detail::Sm90WsVariant v = detail::select_sm90_ws_variant(swap ? args.n : args.m, swap ? args.m : args.n, args.k,
                                                             sms, int(e), row_align, a_km, b_km, c_tma, out_bytes);
    if (flip) v.transpose = !v.transpose;
    return v;
  };
  detail::Sm90WsVariant const v = pick(c_by_tma);
  return !c_by_tma || uses_tma_store(v, args) ? v : pick(false);
}

// Whether a TMA store can write D: 16-byte aligned base, ld and batch stride.
// NOTE: D's contiguous extent must also be a whole number of 16-byte units.
// Run 10 (H200, 2026-11-22): with a 16-byte aligned ld but a row of 133 bf16
// (266 bytes), the TMA-store epilogue wrote into the padding between the row's
// end and ld (test_gemm_repack, *_drow_oddld); only rows whose byte length
// is not a multiple of 16 failed, which points at the last partial 16-byte
// unit (cause not pinned down further). Such rows take the direct epilogue.
bool d_tma_storable(const GemmArgs& args) {
  std::int64_t const ob = size_of(resolved_output(args));
  std::int64_t const inner = args.d.order == MatrixOrder::row_major ? args.n : args.m;
  return reinterpret_cast<std::uintptr_t>(args.d.data) % 16 == 0 && (args.d.ld * ob) % 16 == 0 &&
         (inner * ob) % 16 == 0 && (args.batch_count == 1 || (args.d.batch_stride * ob) % 16 == 0);
}

// Whether the TMA-store epilogue can load C by TMA in D's boxes (beta != 0):
// C in D's order (so C' has the orientation and extents of D', which
// d_tma_storable already holds to whole 16-byte rows), 16-byte aligned base,
// ld and batch stride. Otherwise it reads C element by element.
bool c_tma_loadable(const GemmArgs& args) {
  std::int64_t const ob = size_of(resolved_output(args));
  return args.beta != 0.0f && args.c.order == args.d.order && reinterpret_cast<std::uintptr_t>(args.c.data) % 16 == 0 &&
         (args.c.ld * ob) % 16 == 0 && (args.batch_count == 1 || (args.c.batch_stride * ob) % 16 == 0);
}

// Whether variant `v` is a wide cooperative tile, 128 x 160..224, unclustered:
// the tiles whose TMA-store form is WsGemmNarrowTmaConfig (kWideTmaStore).
bool wide_tma_tile(const detail::Sm90WsVariant& v) {
  return !v.pingpong && v.cluster == 1 && v.tile_n >= 160 && v.tile_n <= 224;
}
// Whether variant `v`'s TMA-store form can write a column-major D': the
// wide tiles and unclustered ping-pong 64x128 (kTransTmaStore).
bool trans_tma_tile(const detail::Sm90WsVariant& v) {
  return wide_tma_tile(v) || (v.pingpong && v.cluster == 1 && v.tile_m == 64 && v.tile_n == 128);
}

// Whether variant `v` runs the TMA-store epilogue for `args`: asked for, D
// storable by TMA, when D' is column-major (the transposed orientation) the
// wide cooperative tiles or unclustered ping-pong 64x128 and a 16-bit
// output (stmatrix .trans, WsGemmConfigT::kTransTmaStore), and 16-bit
// inputs for the wide tiles; otherwise the direct epilogue.
bool uses_tma_store(const detail::Sm90WsVariant& v, const GemmArgs& args) {
  bool const wide = wide_tma_tile(v);
  return v.tma_store && d_tma_storable(args) &&
         (!v.transpose || (trans_tma_tile(v) && size_of(resolved_output(args)) == 2)) &&
         (!wide || args.input != DataType::tf32);
}

GemmKernel::LaunchShape launch_shape(const GemmArgs& args) {
  if (!can_implement(args)) return {};
  detail::Sm90WsVariant const v = default_variant(args);
  GemmKernel::LaunchShape shape;
  (void)with_config(v, args, [&]<class Cfg>() {
    shape = {function_for<Cfg>(args), Cfg::kThreads, Cfg::kSmemBytes};
    return Status{};
  });
  return detail::ready_launch_shape(shape);
}

// Strides of matrix `x` (rows x cols as the API sees it) in the kernel's
// orientation: (row, col) of x, or of x^T when `swap`.
void kernel_strides(const MatrixDesc& x, bool swap, std::int64_t* row, std::int64_t* col) {
  std::int64_t r = x.order == MatrixOrder::row_major ? x.ld : 1;
  std::int64_t c = x.order == MatrixOrder::row_major ? 1 : x.ld;
  if (swap) std::swap(r, c);
  *row = r;
  *col = c;
}

// Launches configuration Cfg with the run-time choices of `v` (group_m,
// splits, split_tail, transpose, balance_waves: see Sm90WsVariant; the
// configuration fields were consumed by with_config).
template <class Cfg>
Status launch_with(const GemmArgs& args, gemm_stream_t stream, const detail::Sm90WsVariant& v) {
  int const group_m = v.group_m;
  int splits = v.splits;
  bool const transpose = v.transpose;
  if (std::string why = unsupported_reason(args); !why.empty()) return ws_fail(StatusCode::cannot_implement, why);
  if (args.m == 0 || args.n == 0) return {};
  if (group_m < 0) return ws_fail(StatusCode::cannot_implement, "group_m must be >= 0 (0: the default)");
  if (splits < 1) return ws_fail(StatusCode::cannot_implement, "splits must be >= 1");
  // Clusters with split-K are refused by launch_sm90_ws_gemm, this function's caller.
  if (transpose && Cfg::kTmaStore && !(Cfg::kTransTmaStore && size_of(resolved_output(args)) == 2))
    return ws_fail(StatusCode::cannot_implement,
                   "the TMA-store epilogue writes a column-major D' (the transposed orientation) in the 128 x 160..224 "
                   "and unclustered ping-pong 64x128 tiles with 16-bit outputs only");

  bool const swap = (args.d.order == MatrixOrder::col_major) != transpose;
  const MatrixDesc& ka = swap ? args.b : args.a;  // kernel A': (M', K)
  const MatrixDesc& kb = swap ? args.a : args.b;  // kernel B': (N', K)
  bool a_km = true, b_km = true;
  kernel_k_major(args, swap, &a_km, &b_km);
  if (args.input == DataType::tf32 && !b_km)
    return ws_fail(StatusCode::cannot_implement,
                   "tf32: this orientation puts the M/N-major operand on B', which wgmma reads K-major only (it "
                   "reads an M/N-major tf32 operand as A', through registers: flip the variant's transpose)");
  std::int64_t const m = swap ? args.n : args.m;
  std::int64_t const n = swap ? args.m : args.n;
  DataType const out = resolved_output(args);
  std::int64_t const out_bytes = size_of(out);
  std::int64_t const e = size_of(args.input);
  int const block_k = int(Cfg::kBlockKBytes / e);

  int const smem_limit = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
  if (smem_limit < Cfg::kSmemBytes)
    return ws_fail(StatusCode::cannot_implement, "needs " + std::to_string(Cfg::kSmemBytes) +
                                                  " bytes of shared memory per block, the device allows " +
                                                  std::to_string(smem_limit));
  int const sms = device_attribute(cudaDevAttrMultiProcessorCount);
  if (sms <= 0) return ws_fail(StatusCode::cuda_error, "cannot read the multiprocessor count");

  const void* fn = function_for<Cfg>(args);
  if (fn == nullptr) return ws_fail(StatusCode::cannot_implement, "no instantiation for these types");
  // with_config's rule: the deferred epilogue never sees beta * C.
  if constexpr (Cfg::kDeferStores) {
    if (reads_c_16bit(args))
      return ws_fail(StatusCode::cannot_implement,
                     "the deferred-store 128x256 kernel reads no C; beta != 0 with a 16-bit output takes the "
                     "kernel that stores each tile at its end");
  }
  cudaError_t err = static_cast<cudaError_t>(detail::set_smem_attributes_once(fn, Cfg::kSmemBytes));
  if (err != cudaSuccess)
    return ws_fail(StatusCode::cuda_error, std::string("cudaFuncSetAttribute failed: ") + cudaGetErrorString(err));

  WsGemmParams p;
  p.m = int(m);
  p.n = int(n);
  p.k = int(args.k);
  p.tiles_m = int((m + Cfg::kBlockM - 1) / Cfg::kBlockM);
  p.tiles_n = int((n + Cfg::kBlockN - 1) / Cfg::kBlockN);
  p.k_blocks = int((args.k + block_k - 1) / block_k);
  std::int64_t const all_tiles = std::int64_t(p.tiles_m) * p.tiles_n;
  std::int64_t const count_slots = all_tiles * (Cfg::kBlockM / 64);
  if (splits > 1 && count_slots > kCounterSlots) splits = 1;  // too many tiles to count; split-K would not pay anyway
  int const sms_per_wave = sms / Cfg::kCluster;
  std::int64_t split_from = 0;
  if (splits > 1) {
    // Equal K-block counts per slice, the last one shorter; no slice starts
    // past K.
    int const per = (p.k_blocks + splits - 1) / splits;
    splits = (p.k_blocks + per - 1) / per;
    p.split_k_blocks = per;
    if (v.split_tail) {
      std::int64_t const tail = all_tiles % sms_per_wave;
      split_from = all_tiles - tail;
      if (tail == 0) splits = 1;
    }
  }
  p.splits = splits;
  p.split_from = int(split_from);
  p.group_m = group_m > 0 ? group_m : Cfg::kGroupM;
  kernel_strides(args.d.view(), swap, &p.d_row, &p.d_col);
  p.d_pair_ok = p.d_col == 1 && reinterpret_cast<std::uintptr_t>(args.d.data) % std::uintptr_t(2 * out_bytes) == 0 &&
                p.d_row % 2 == 0 && (args.batch_count == 1 || args.d.batch_stride % 2 == 0);
  p.alpha = args.alpha;
  p.beta = args.beta;
  p.a_mn = !a_km;
  p.b_mn = !b_km;
  p.d_trans = transpose;
  if (args.beta != 0.0f) kernel_strides(args.c, swap, &p.c_row, &p.c_col);
  bool const c_tma = Cfg::kTmaStore && c_tma_loadable(args);
  std::int64_t const tiles = p.splits == 1 ? all_tiles : split_from + (all_tiles - split_from) * p.splits;  // work units
  if (tiles > INT_MAX) return ws_fail(StatusCode::cannot_implement, "too many tiles");
  // Persistent grid: one CTA per SM (per pair of SMs and tile-row pair for
  // clusters of 2), at most one per work unit.
  std::int64_t const units = Cfg::kCluster == 2 ? std::int64_t((p.tiles_m + 1) / 2) * p.tiles_n : tiles;
  // Split-K workspace: one kBlockM x kBlockN f32 buffer per split tile and
  // the tile counters, one for the whole batch (its launches run in stream
  // order). Without it: no split.
  if (p.splits > 1) {
    std::size_t const bytes = std::size_t(all_tiles - split_from) * std::size_t(Cfg::kBlockM * Cfg::kBlockN) * sizeof(float);
    SplitkWorkspace const ws = splitk_workspace(bytes, stream);
    if (ws.partial == nullptr) {
      detail::Sm90WsVariant unsplit = v;
      unsplit.splits = 1;
      unsplit.split_tail = false;
      return launch_with<Cfg>(args, stream, unsplit);
    }
    p.partial = ws.partial;
    p.counters = ws.counters;
  }
  std::int64_t slots = sms_per_wave;
  if constexpr (Cfg::kCluster > 1) {
    // Not every SM pair can host a cluster (GPCs of odd size): size the
    // persistent grid by how many clusters fit at once.
    arch::ClusterLaunch occ;
    occ.grid = dim3(unsigned(slots * Cfg::kCluster));
    occ.block = dim3(Cfg::kThreads);
    occ.cluster = dim3(Cfg::kCluster);
    occ.smem = std::size_t(Cfg::kSmemBytes);
    int const active = arch::max_active_clusters(fn, occ);
    if (active > 0 && active < slots) slots = active;
  }
  if (slots <= 0) return ws_fail(StatusCode::cannot_implement, "too few multiprocessors for the cluster");
  if (v.balance_waves && p.splits == 1 && units > slots) {
    // As many waves as before, each of them full: CTA i runs units i, i +
    // grid, ... and every CTA runs `waves` of them (the last CTAs one fewer
    // when units is not a multiple of waves).
    std::int64_t const waves = (units + slots - 1) / slots;
    slots = (units + waves - 1) / waves;
  }
  unsigned const grid = unsigned((units < slots ? units : slots) * Cfg::kCluster);

  tma::TiledDesc ta;
  ta.type = detail::tma_element_type(args.input);
  ta.elem_bytes = int(e);
  ta.rank = 2;
  ta.swizzle = tma::Swizzle::b128;
  tma::TiledDesc tb = ta;
  // K-major: (K, rows) with boxes of (kBlockK, tile rows). MN-major: (rows,
  // K) with boxes of (W bytes of rows, kBlockK), several per stage (see
  // WsGemmConfigT::kMnBytesB); the non-unit stride is ld either way.
  auto operand_map = [&](tma::TiledDesc& t, bool k_major, std::int64_t rows, std::int64_t ld, int box_rows,
                         int mn_bytes) {
    t.strides[0] = std::uint64_t(ld * e);
    if (k_major) {
      t.dims[0] = std::uint64_t(args.k);
      t.dims[1] = std::uint64_t(rows);
      t.box[0] = std::uint32_t(block_k);
      t.box[1] = std::uint32_t(box_rows);
    } else {
      t.dims[0] = std::uint64_t(rows);
      t.dims[1] = std::uint64_t(args.k);
      t.box[0] = std::uint32_t(mn_bytes / e);
      t.box[1] = std::uint32_t(block_k);
      t.swizzle = mn_bytes == 128 ? tma::Swizzle::b128 : mn_bytes == 64 ? tma::Swizzle::b64 : tma::Swizzle::b32;
    }
  };
  operand_map(ta, a_km, m, ka.ld, Cfg::kBlockM, 128);
  // A cluster CTA loads (and multicasts) one part of B.
  operand_map(tb, b_km, n, kb.ld, Cfg::kBlockN / Cfg::kCluster, Cfg::kMnBytesB);
  // D' for the TMA-store epilogue (the launch checked the alignment), in
  // the boxes of ws_epi_offset: row-major (n, m) in boxes of (box bytes of
  // columns, 64 rows) with the swizzle of that span; column-major (m, n),
  // 16-bit, in boxes of (64 rows = 128 bytes, J columns), 128B swizzle.
  tma::TiledDesc td;
  td.type = detail::tma_element_type(out);
  td.elem_bytes = int(out_bytes);
  td.rank = 2;
  if (transpose) {
    td.swizzle = tma::Swizzle::b128;
    td.dims[0] = std::uint64_t(m);
    td.dims[1] = std::uint64_t(n);
    td.strides[0] = std::uint64_t(p.d_col * out_bytes);
    td.box[0] = 64;
    td.box[1] = std::uint32_t(kernels::sm90::ws_epi_trans_rows(Cfg::kBlockN));
  } else {
    int const box_bytes = kernels::sm90::ws_epi_box_bytes(Cfg::kBlockN * int(out_bytes));
    td.swizzle = box_bytes == 128 ? tma::Swizzle::b128 : box_bytes == 64 ? tma::Swizzle::b64 : tma::Swizzle::b32;
    td.dims[0] = std::uint64_t(n);
    td.dims[1] = std::uint64_t(m);
    td.strides[0] = std::uint64_t(p.d_row * out_bytes);
    td.box[0] = std::uint32_t(box_bytes / out_bytes);
    td.box[1] = 64;
  }

  // NOTE: a batch is one persistent launch per matrix, in stream order (two
  // tensor maps per batch); a 3-D tensor map with the batch as the outer
  // dimension would fold them into one launch.
  for (std::int64_t bi = 0; bi < args.batch_count; ++bi) {
    ta.base = static_cast<const char*>(ka.data) + bi * ka.batch_stride * e;
    tb.base = static_cast<const char*>(kb.data) + bi * kb.batch_stride * e;
    CUtensorMap tmap_a, tmap_b, tmap_d{}, tmap_c{};
    if (auto r = tma::encode_tiled(&tmap_a, ta); !r.ok) return ws_fail(StatusCode::cannot_implement, "A: " + r.message);
    if (auto r = tma::encode_tiled(&tmap_b, tb); !r.ok) return ws_fail(StatusCode::cannot_implement, "B: " + r.message);
    p.d = static_cast<char*>(args.d.data) + bi * args.d.batch_stride * out_bytes;
    p.c = args.beta != 0.0f ? static_cast<const char*>(args.c.data) + bi * args.c.batch_stride * out_bytes : nullptr;
    if constexpr (Cfg::kTmaStore) {
      td.base = p.d;
      if (auto r = tma::encode_tiled(&tmap_d, td); !r.ok) return ws_fail(StatusCode::cannot_implement, "D: " + r.message);
    }
    // C' in the boxes of D' (c_tma_loadable); a map the driver refuses leaves
    // this matrix to the element-wise reads.
    p.c_tma = false;
    if (c_tma) {
      tma::TiledDesc tc = td;
      tc.base = p.c;
      tc.strides[0] = std::uint64_t((transpose ? p.c_col : p.c_row) * out_bytes);
      p.c_tma = tma::encode_tiled(&tmap_c, tc).ok;
    }
    void* kargs[] = {&tmap_a, &tmap_b, &tmap_d, &tmap_c, &p};
    if constexpr (Cfg::kCluster == 1) {
      err = cudaLaunchKernel(fn, dim3(grid), dim3(Cfg::kThreads), kargs, size_t(Cfg::kSmemBytes), stream);
    } else {
      arch::ClusterLaunch l;
      l.grid = dim3(grid);
      l.block = dim3(Cfg::kThreads);
      l.cluster = dim3(Cfg::kCluster);
      l.smem = std::size_t(Cfg::kSmemBytes);
      l.stream = static_cast<cudaStream_t>(stream);
      err = arch::launch_cluster(fn, l, kargs);
    }
    if (err != cudaSuccess)
      return ws_fail(StatusCode::cuda_error, std::string("launch failed: ") + cudaGetErrorString(err));
  }
  return {};
}

}  // namespace

namespace detail {

bool can_implement_sm90_ws_gemm(const GemmArgs& args) { return unsupported_reason(args).empty(); }

bool sm90_ws_reads_c_by_tma(const GemmArgs& args, const Sm90WsVariant& v) {
  return can_implement_sm90_ws_gemm(args) && uses_tma_store(v, args) && c_tma_loadable(args);
}

// In D's own orientation (D' = D, or D^T for a column-major D) B' would be
// the M/N-major tf32 operand: the launch flips the orientation.
bool sm90_ws_transposes_for_tf32(const GemmArgs& args) {
  if (args.input != DataType::tf32) return false;
  bool a_km = true, b_km = true;
  kernel_k_major(args, args.d.order == MatrixOrder::col_major, &a_km, &b_km);
  return !b_km;
}

Status launch_sm90_ws_gemm(const GemmArgs& args, gemm_stream_t stream) {
  if (std::string why = unsupported_reason(args); !why.empty()) return ws_fail(StatusCode::cannot_implement, why);
  if (args.m == 0 || args.n == 0) return {};
  int sms = device_attribute(cudaDevAttrMultiProcessorCount);
  if (sms <= 0) return ws_fail(StatusCode::cuda_error, "cannot read the multiprocessor count");
  return launch_sm90_ws_gemm(args, stream, default_variant(args));
}

Sm90WsVariant default_sm90_ws_variant(const GemmArgs& args) { return default_variant(args); }

Status launch_sm90_ws_gemm(const GemmArgs& args, gemm_stream_t stream, Sm90WsVariant variant) {
  if (const char* why = missing_device_code(); why != nullptr) return ws_fail(StatusCode::unsupported_architecture, why);
  // Cooperative 128x256 and ping-pong tile_m x 128: the tiles that have the
  // cluster-pair and TMA-store forms; the wide cooperative 128 x 160..224
  // tiles have the TMA-store form too.
  bool const full_tile = variant.pingpong ? variant.tile_n == 128 : variant.tile_n == 256;
  if (variant.cluster != 1 && (variant.cluster != 2 || !full_tile))
    return ws_fail(StatusCode::cannot_implement,
                   "clusters: only pairs (2) of cooperative 128x256 or ping-pong 64x128 / 128x128 tiles");
  if (variant.tile_m != 128 && !(variant.tile_m == 64 && variant.pingpong && variant.tile_n == 128))
    return ws_fail(StatusCode::cannot_implement, "tile_m 64 exists for ping-pong 64x128 only (tile_n 128)");
  if (variant.tma_store && !full_tile && !wide_tma_tile(variant))
    return ws_fail(StatusCode::cannot_implement,
                   "the TMA-store epilogue exists for cooperative 128x256 and 128 x 160..224 and ping-pong 128x128 / "
                   "64x128 only");
  if (variant.splits > 1 && variant.cluster != 1)
    return ws_fail(StatusCode::cannot_implement, "split-K is not implemented for clusters");
  return with_config(variant, args, [&]<class Cfg>() {
    return launch_with<Cfg>(args, stream, variant);
  });
}

#ifdef TESSERA_WS_TIMELINE
// The measurement hook's host side (sm90_ws_timeline.cuh): this translation
// unit's copy of the slots is the one its kernels write.
Status ws_timeline_clear() {
  void* slots = nullptr;
  cudaError_t err = cudaGetSymbolAddress(&slots, kernels::sm90::ws_timeline);
  if (err == cudaSuccess) err = cudaMemset(slots, 0, sizeof(kernels::sm90::ws_timeline));
  if (err != cudaSuccess) return {StatusCode::cuda_error, std::string("ws_timeline_clear: ") + cudaGetErrorString(err)};
  return {};
}

Status ws_timeline_copy(std::uint64_t* out, int ctas) {
  if (out == nullptr) return {StatusCode::null_pointer, "ws_timeline_copy: null output"};
  if (ctas < 0 || ctas > kernels::sm90::kWsTimelineCtas)
    return {StatusCode::invalid_size, "ws_timeline_copy: a CTA count outside [0, kWsTimelineCtas]"};
  cudaError_t const err = cudaMemcpyFromSymbol(
      out, kernels::sm90::ws_timeline, std::size_t(ctas) * kernels::sm90::kWsTimelineSlots * sizeof(std::uint64_t));
  if (err != cudaSuccess) return {StatusCode::cuda_error, std::string("ws_timeline_copy: ") + cudaGetErrorString(err)};
  return {};
}
#endif

}  // namespace detail


namespace kernels {

GemmKernel gemm_kernel_sm90_ws_gemm() {
  GemmKernel k;
  k.info = {"sm90_ws_gemm", 90, 90,
            "TMA + wgmma, warp-specialised persistent; per shape: cooperative 128x256 (TMA-store epilogue), ping-pong "
            "128x128, cooperative 128 x 160..224 (mid-size problems, by a wave-fill model; TMA-store epilogue), or "
            "cooperative 128xN "
            "(N = 16..128, small dimension on N) "
            "with in-kernel split-K; "
            "bf16/f16 -> f32 acc, f16 -> f16 with f16 acc on request, any order (MN-major tiles read transposed); "
            "tf32 -> f32, at most one M/N-major operand (read through registers); "
            "16-byte aligned A/B, ld and batch strides; one launch per batch"};
  k.can_implement = &can_implement;
  k.launch = &launch;
  k.launch_shape = &launch_shape;
  k.missing_device_code = &missing_device_code;
  return k;
}

}  // namespace kernels
}  // namespace tessera
