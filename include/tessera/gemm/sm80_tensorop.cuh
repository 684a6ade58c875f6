// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The Ampere tensor-core GEMM kernel (seed 000's TN HGEMM, generalised):
// grid rasterisation -> mainloop policy (sm80_mainloop.cuh) -> shared-memory
// epilogue (sm80_epilogue.cuh). One template for every element kind, operand
// majorness, tile configuration and mainloop policy; the instantiations live
// in src/gemm/kernels/sm80_tensorop_<kind>.cu.

#include <cuda_runtime.h>

#include <tessera/gemm/sm80_config.hpp>
#include <tessera/gemm/sm80_epilogue.cuh>
#include <tessera/gemm/sm80_mainloop.cuh>
#include <tessera/gemm/sm80_rasterize.cuh>
#include <tessera/gemm/sm80_tiled.cuh>
#include <tessera/gemm/sm80_tensorop.hpp>

namespace tessera::kernels::sm80 {

template <class Cfg, class Elem, class Acc>
__global__ void __launch_bounds__(Cfg::kThreads, Cfg::kThreads <= 128 ? 2 : 1)
    sm80_gemm_kernel(const Params p) {
  // Preconditions are static (Sm80TileConfig); the operand types must match
  // the configuration's element size.
  static_assert(sizeof(Elem) == Cfg::kElemBytes, "sm80_gemm_kernel: element type and configuration disagree");
  using Mainloop = Sm80Mainloop<Cfg, Elem, Acc>;
  using Epilogue = Sm80Epilogue<Cfg>;
  extern __shared__ __align__(128) char smem[];

  int tm, tn;
  rasterize(int(blockIdx.x), p.tiles_m, p.tiles_n, p.raster_group, tm, tn);
  int const m0 = tm * Cfg::kBlockM;
  int const n0 = tn * Cfg::kBlockN;
  int const warp = int(threadIdx.x) >> 5;
  int const warp_m = warp % Cfg::kWarpsM;
  int const warp_n = warp / Cfg::kWarpsM;
  int const k_tiles = (p.k + Cfg::kBlockK - 1) / Cfg::kBlockK;

  for (int batch = int(blockIdx.y); batch < p.batch_count; batch += int(gridDim.y)) {
    typename Mainloop::LoaderA la(static_cast<const char*>(p.a) + int64_t(batch) * p.batch_a * int64_t(sizeof(Elem)),
                                  p.lda, m0, p.m, p.k);
    typename Mainloop::LoaderB lb(static_cast<const char*>(p.b) + int64_t(batch) * p.batch_b * int64_t(sizeof(Elem)),
                                  p.ldb, n0, p.n, p.k);
    typename Mainloop::Frags frags(warp_m, warp_n);

    typename Mainloop::FragD acc[Cfg::kMmaM][Cfg::kMmaN];
#pragma unroll
    for (int mi = 0; mi < Cfg::kMmaM; ++mi)
#pragma unroll
      for (int ni = 0; ni < Cfg::kMmaN; ++ni)
#pragma unroll
        for (int r = 0; r < int(sizeof(acc[0][0]) / 4); ++r) acc[mi][ni][r] = {};

    Mainloop::run(smem, la, lb, frags, k_tiles, acc);

    EpilogueParams epi = p.epi;
    int const out_bytes = epi.out == OutputType::f32 ? 4 : 2;
    epi.d = static_cast<char*>(epi.d) + int64_t(batch) * p.batch_d * out_bytes;
    if (epi.c != nullptr) epi.c = static_cast<const char*>(epi.c) + int64_t(batch) * p.batch_c * out_bytes;
    Epilogue::run(smem, acc, warp_m, warp_n, epi, m0, n0, p.m, p.n);
    __syncthreads();  // the next batch's mainloop overwrites the staging tile
  }
}

// Launch description of one instantiation; sets its shared-memory attributes
// once (thread-safe static initialisation).
template <class Cfg, class Elem, class Acc>
Launch describe() {
  auto* fn = &sm80_gemm_kernel<Cfg, Elem, Acc>;
  static const int setup = [fn] {
    cudaError_t e = cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes);
    if (e == cudaSuccess) e = cudaFuncSetAttribute(fn, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
    return int(e);
  }();
  return {reinterpret_cast<const void*>(fn), Cfg::kThreads, Cfg::kSmemBytes, Cfg::kBlockM, Cfg::kBlockN,
          Cfg::kAccessBytes, setup};
}

// The atom layer's name of a CUDA storage type (the tiled kernel's Elem/Acc).
template <class T>
using AtomElement = std::conditional_t<std::is_same_v<T, __half>, half_t,
                                       std::conditional_t<std::is_same_v<T, __nv_bfloat16>, bfloat16_t, T>>;

// kWide: instantiate the 128x256 tile; kPolicies: the SingleStage/Pipelined
// variants. (Each instantiation costs compile time: only what is dispatched.)
template <class Elem, class Acc, bool kWide, bool kPolicies, bool kA, bool kB>
Launch select_layout(Sm80Variant v) {
  constexpr int kE = int(sizeof(Elem));
  switch (v) {
    case Sm80Variant::tile128x256:
      if constexpr (kWide) return describe<ConfigTile128x256<kE, kA, kB>, Elem, Acc>();
      else return {};
    case Sm80Variant::tile128x128: return describe<ConfigTile128x128<kE, kA, kB>, Elem, Acc>();
    case Sm80Variant::scalar: return describe<ConfigScalar<kE, kA, kB>, Elem, Acc>();
    case Sm80Variant::pipelined:
      if constexpr (kPolicies) return describe<ConfigPipelined<kE, kA, kB>, Elem, Acc>();
      else return {};
    case Sm80Variant::single_stage:
      if constexpr (kPolicies) return describe<ConfigSingleStage<kE, kA, kB>, Elem, Acc>();
      else return {};
    case Sm80Variant::tiled:
      if constexpr (kE == 2 && kA && kB) return describe_tiled<AtomElement<Elem>, AtomElement<Acc>>();
      else return {};
    default: return {};  // automatic; tuning variants: select_tuning
  }
}

// The tuning candidates (sm80_config.hpp), TN only. kWarp128: also the
// 64x128 warp tile (f16 accumulation only).
template <class Elem, class Acc, bool kWarp128>
Launch select_tuning(Sm80Variant v) {
  constexpr int kE = int(sizeof(Elem));
  switch (v) {
    case Sm80Variant::t128x128_s4: return describe<ConfigT128x128S4<kE>, Elem, Acc>();
    case Sm80Variant::t128x128_w8: return describe<ConfigT128x128W8<kE>, Elem, Acc>();
    case Sm80Variant::t128x256_s3: return describe<ConfigT128x256S3<kE>, Elem, Acc>();
    case Sm80Variant::t256x128_s3: return describe<ConfigT256x128S3<kE>, Elem, Acc>();
    case Sm80Variant::t256x128_s4: return describe<ConfigT256x128S4<kE>, Elem, Acc>();
    case Sm80Variant::t128x256_w4:
      if constexpr (kWarp128) return describe<ConfigT128x256W4<kE>, Elem, Acc>();
      else return {};
    case Sm80Variant::t128x128_spread: return describe<ConfigT128x128Spread<kE>, Elem, Acc>();
    case Sm80Variant::t128x256_spread: return describe<ConfigT128x256Spread<kE>, Elem, Acc>();
    default: return {};
  }
}

template <class Elem, class Acc, bool kWide, bool kPolicies>
Launch select(bool a_k_major, bool b_k_major, Sm80Variant v) {
  if (a_k_major && b_k_major) return select_layout<Elem, Acc, kWide, kPolicies, true, true>(v);
  if (a_k_major) return select_layout<Elem, Acc, kWide, kPolicies, true, false>(v);
  if (b_k_major) return select_layout<Elem, Acc, kWide, kPolicies, false, true>(v);
  return select_layout<Elem, Acc, kWide, kPolicies, false, false>(v);
}

}  // namespace tessera::kernels::sm80
