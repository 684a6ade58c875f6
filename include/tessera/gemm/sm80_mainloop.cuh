// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The pieces of the Ampere tensor-core mainloop (seed 000) and the three
// mainloop policies of seed 001:
//
//   SwizzledSmemTile   the shared-memory address map of one operand tile
//   GmemTileLoader     global -> shared (cp.async, or through registers)
//   WarpFragmentLoader shared -> registers (ldmatrix / ldmatrix.trans)
//   Sm80Mainloop<Cfg>  SingleStage | Pipelined | Multistage<N>
//
// Index math is written out per thread rather than through Tensor/TiledCopy
// (the tensor and atom layers came later; docs/gemm_kernels.md maps these
// names to the seed's tAgA/tAsA, tXsA/tCrA). sm80_tiled.cuh is the seed tile
// written with them; test_gemm_sm80_tiled_indexing checks that both compute
// the same addresses.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include <tessera/arch/sm80/cp_async.cuh>
#include <tessera/config.hpp>
#include <tessera/arch/sm80/ldmatrix.cuh>
#include <tessera/arch/sm80/mma.cuh>
#include <tessera/gemm/sm80_config.hpp>

namespace tessera::kernels::sm80 {

// ---------------------------------------------------------------------------
// Element traits: storage type -> mma.sync operand kind.
template <class Elem, class Acc>
struct MmaFor;
template <>
struct MmaFor<__half, float> {
  using Op = arch::Mma_m16n8k16_f32f16f16f32;
};
template <>
struct MmaFor<__nv_bfloat16, float> {
  using Op = arch::Mma_m16n8k16_f32bf16bf16f32;
};
template <>
struct MmaFor<__half, __half> {
  using Op = arch::Mma_m16n8k16_f16f16f16f16;
};
template <>
struct MmaFor<float, float> {
  using Op = arch::Mma_m16n8k8_f32tf32tf32f32;
};

// cvt.rna.tf32.f32: round an f32 bit pattern to tf32 (ties away); sm_80+.
// NOTE: private to the GEMM (arch/sm80 has no cvt wrapper yet). Rounding
// instead of letting mma.sync truncate halves the worst-case product error.
__device__ __forceinline__ uint32_t round_to_tf32(uint32_t bits) {
#if TESSERA_SM80_ENABLED
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(__uint_as_float(bits)));
  return r;
#else
  tessera_error_requires_sm80_or_newer();
  return bits;
#endif
}

// ---------------------------------------------------------------------------
// Shared-memory map of one operand tile: kRows rows of kRowBytes bytes
// (kRowBytes a multiple of 128), 16-byte chunk c of row r stored at chunk
// (c ^ (r % 8)) of that row.  (row, chunk) -> byte offset.
//
// For 128-byte rows this is Swizzle<3,4,3> on byte offsets -- Swizzle<3,3,3>
// on 16-bit element offsets, the seed's swizzle atom (8,(8,8)):(8,(1,64))
// tiled over the stage. For longer rows (M/N-major tiles) the XOR uses the
// row index, not address bits 7..9, so the 8 rows that one ldmatrix phase
// reads (8 consecutive rows, same chunk) always land in 8 distinct 16-byte
// bank groups.
// NOTE: conflict-free for ldmatrix (8 rows x 16 B per phase), for the cp.async
// writes (a warp writes whole 128-byte lines) and for the scalar tf32 reads of
// the M/N-major path up to 2-way.
template <int kRows, int kRowBytes>
struct SwizzledSmemTile {
  static_assert(kRowBytes % 128 == 0, "SwizzledSmemTile: rows must be whole 128-byte lines");
  static constexpr int kBytes = kRows * kRowBytes;
  static constexpr int kChunksPerRow = kRowBytes / 16;

  TESSERA_HOST_DEVICE TESSERA_INLINE static int offset(int row, int chunk) {
    return row * kRowBytes + ((chunk ^ (row & 7)) << 4);
  }
};

// Vector register type of one global access.
template <int kBytes>
struct AccessVec;
template <>
struct AccessVec<16> {
  using type = uint4;
};
template <>
struct AccessVec<8> {
  using type = uint2;
};
template <>
struct AccessVec<4> {
  using type = uint32_t;
};
template <>
struct AccessVec<2> {
  using type = uint16_t;
};

// ---------------------------------------------------------------------------
// Global -> shared copy of one operand's (BLK_MN, BLK_K) tile.
//
// K-major operand: stored tile = kMN rows (M or N) of BLK_K contiguous
// elements. M/N-major operand: stored tile = BLK_K rows (k) of kMN contiguous
// elements. Thread t moves units t, t+kThreads, ... of kAccessBytes each,
// consecutive threads along the contiguous direction (coalesced); unit i of a
// thread sits kRowStep stored rows below unit i-1, in the same column.
// The seed's tAgA/tAsA: unit i of this thread is entry i of (CPY_M, CPY_K).
//
// Edges: a unit whose row is out of range, or whose first element is past
// the contiguous extent, reads nothing and writes zeros; a unit straddling
// the contiguous edge reads only its valid bytes (cp.async src-size < cp-size
// zero-fills the rest). Zeros in K past the end make the extra products 0.
//
// NOTE: the loader keeps one 64-bit pointer, a row-validity bit mask and a
// few ints per operand; unit addresses are formed on the fly. Precomputed
// per-unit pointers (16 x 64-bit) pushed the 64x64 warp tile over 255
// registers.
//
// kUnrollInterior: unroll the interior copy loop fully (every unit address an
// immediate offset); for kernels with registers to spare.
template <class Elem, bool kKMajor, int kMN, int kBlockK, int kThreads, int kAccessBytes, bool kUnrollInterior = false>
struct GmemTileLoader {
  static constexpr int kElemBytes = int(sizeof(Elem));
  static constexpr int kRows = kKMajor ? kMN : kBlockK;
  static constexpr int kCols = kKMajor ? kBlockK : kMN;
  static constexpr int kRowBytes = kCols * kElemBytes;
  static constexpr int kUnitsPerRow = kRowBytes / kAccessBytes;
  static constexpr int kUnits = kRows * kUnitsPerRow;
  static constexpr int kPerThread = kUnits / kThreads;
  static constexpr int kRowStep = kThreads / kUnitsPerRow;
  // NOTE: the cp.async issue loop is unrolled by 4, not fully: with all 8
  // units of the 64x64-warp configurations unrolled, ptxas hoisted their
  // addresses and spilled 8 bytes; by 4 they fit in 246-252 registers with
  // no spill. (Register staging always unrolls fully: `staged` must stay in
  // registers.)
  static constexpr int kUnroll = kPerThread <= 4 ? kPerThread : 4;
  using Smem = SwizzledSmemTile<kRows, kRowBytes>;
  using Vec = typename AccessVec<kAccessBytes>::type;

  static_assert(kUnits % kThreads == 0, "GmemTileLoader: the tile must split evenly over the threads");
  static_assert(kThreads % kUnitsPerRow == 0, "GmemTileLoader: a row must not need more units than threads");
  static_assert(kPerThread <= 64, "GmemTileLoader: at most 64 units per thread (row mask is 64 bits)");

  using Mask = std::conditional_t<(kPerThread <= 32), uint32_t, uint64_t>;
  static constexpr Mask kAllRows = kPerThread == 8 * int(sizeof(Mask)) ? ~Mask(0) : (Mask(1) << kPerThread) - 1;

  const char* ptr;     // unit 0 of k-tile 0 (dereferenced only when in bounds)
  int64_t row_step;    // bytes from unit i to unit i+1
  Mask row_mask;       // K-major: bit i set when unit i's row is inside M (N)
  int row0;            // stored row of unit 0
  int byte0;           // byte of unit 0 within its stored row
  int col_valid;       // M/N-major: in-bounds bytes of this thread's column unit
  int k_extent;

  __device__ __forceinline__ GmemTileLoader(const char* base, int64_t ld, int mn0, int mn_extent, int k_ext)
      : GmemTileLoader(base, ld, mn0, mn_extent, k_ext, int(threadIdx.x)) {}
  TESSERA_HOST_DEVICE TESSERA_INLINE GmemTileLoader(const char* base, int64_t ld, int mn0, int mn_extent, int k_ext, int tid) {
    int const u = tid;
    row0 = u / kUnitsPerRow;
    byte0 = (u % kUnitsPerRow) * kAccessBytes;
    int const col0 = byte0 / kElemBytes;
    k_extent = k_ext;
    row_step = int64_t(kRowStep) * ld * kElemBytes;
    if constexpr (kKMajor) {
      ptr = base + (int64_t(mn0 + row0) * ld + col0) * kElemBytes;
      row_mask = 0;
      for (int i = 0; i < kPerThread; ++i)  // once per CTA; host-callable, so no #pragma unroll
        if (mn0 + row0 + i * kRowStep < mn_extent) row_mask |= Mask(1) << i;
      col_valid = 0;
    } else {
      ptr = base + (int64_t(row0) * ld + mn0 + col0) * kElemBytes;
      row_mask = 0;
      int rem = mn_extent - mn0 - col0;  // elements left in M (N); clamp before scaling to bytes
      rem = rem > kAccessBytes ? kAccessBytes : rem;
      col_valid = clamp_bytes(rem * kElemBytes);
    }
  }

  TESSERA_HOST_DEVICE TESSERA_INLINE static int clamp_bytes(int b) {
    return b < 0 ? 0 : (b > kAccessBytes ? kAccessBytes : b);
  }

  // In-bounds bytes of unit i of k-tile kt. `kcol_valid`: K-major only, the
  // in-bounds bytes of this thread's K column in this k-tile.
  TESSERA_HOST_DEVICE TESSERA_INLINE int unit_valid(int i, int kt, int kcol_valid) const {
    if constexpr (kKMajor) {
      return (row_mask >> i) & 1 ? kcol_valid : 0;
    } else {
      return kt * kBlockK + row0 + i * kRowStep < k_extent ? col_valid : 0;
    }
  }
  TESSERA_HOST_DEVICE TESSERA_INLINE int k_column_valid(int kt) const {
    if constexpr (kKMajor) {
      int rem = k_extent - kt * kBlockK;  // elements left in K; clamp first so the bytes cannot overflow
      rem = rem > kBlockK ? kBlockK : rem;
      return clamp_bytes(rem * kElemBytes - byte0);
    }
    else return 0;
  }

  // Unit 0's address in k-tile kt: BLK_K elements (K-major) or BLK_K rows
  // (= BLK_K / kRowStep row steps) further.
  TESSERA_HOST_DEVICE TESSERA_INLINE const char* tile_pointer(int kt) const {
    if constexpr (kKMajor) return ptr + int64_t(kt) * (kBlockK * kElemBytes);
    else return ptr + int64_t(kt) * (kBlockK / kRowStep) * row_step;
  }

  TESSERA_HOST_DEVICE TESSERA_INLINE int smem_offset(int i) const {
    if constexpr (kRowStep % 8 == 0) {
      // row % 8 is the same for every unit: one swizzle, then immediates.
      return Smem::offset(row0, byte0 >> 4) + (byte0 & 15) + i * kRowStep * kRowBytes;
    } else {
      return Smem::offset(row0 + i * kRowStep, byte0 >> 4) + (byte0 & 15);
    }
  }

  // Whether every unit of k-tile kt lies wholly inside the matrix: all of
  // this thread's rows (K-major) or its whole column unit (M/N-major), and a
  // k-tile that ends inside K. True for every k-tile but the last of every
  // CTA away from the M/N edges.
  TESSERA_HOST_DEVICE TESSERA_INLINE bool interior(int kt) const {
    if ((kt + 1) * kBlockK > k_extent) return false;
    if constexpr (kKMajor) return row_mask == kAllRows;
    else return col_valid == kAccessBytes;
  }

  // copy(tAgA(_,_,_,kt), tAsA(_,_,_,stage)) with cp.async (asynchronous; the
  // caller fences and waits). With 2-byte units (16-bit data whose pointer or
  // ld is odd) there is no cp.async: a guarded scalar copy, synchronous.
  __device__ __forceinline__ void copy_async(char* smem_stage, int kt) const {
    if constexpr (kAccessBytes >= 4) {
      // NOTE: interior k-tiles take plain cp.async without a source size. The
      // zero-fill form costs ~10 integer instructions per unit in SASS (byte
      // count, predicate, address fix-up): ~150 of the ~490 instructions a
      // warp issued per k-tile in the seed kernel (H100 SASS, session 4).
      if (interior(kt)) {
        using Policy = std::conditional_t<kAccessBytes == 16, arch::CacheGlobal, arch::CacheAlways>;
        // NOTE: without kUnrollInterior, unrolled by 2 for sm_90 and not at
        // all for sm_80: unrolled further, the 128x256 f32-accumulating
        // kernels spilled 4-12 bytes at 255 registers (by 4 on sm_90a, by 2
        // on sm_80).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
        constexpr int kInteriorUnroll = kUnrollInterior ? kPerThread : 1;
#else
        constexpr int kInteriorUnroll = kUnrollInterior ? kPerThread : 2;
#endif
        const char* p = tile_pointer(kt);
#pragma unroll kInteriorUnroll
        for (int i = 0; i < kPerThread; ++i) {
          arch::cp_async<kAccessBytes, Policy>(smem_stage + smem_offset(i), p);
          p += row_step;
        }
        return;
      }
    }
    int const kcol = k_column_valid(kt);
    const char* p = tile_pointer(kt);
#pragma unroll kUnroll
    for (int i = 0; i < kPerThread; ++i) {
      int const valid = unit_valid(i, kt, kcol);
      char* dst = smem_stage + smem_offset(i);
      if constexpr (kAccessBytes >= 4) {
        // NOTE: 16-byte copies bypass L1 (.cg): operands are reused through L2
        // and shared memory, never through L1.
        using Policy = std::conditional_t<kAccessBytes == 16, arch::CacheGlobal, arch::CacheAlways>;
        arch::cp_async_zfill<kAccessBytes, Policy>(dst, p, uint32_t(valid));
      } else {
        uint16_t v = valid > 0 ? *reinterpret_cast<const uint16_t*>(p) : uint16_t(0);
        *reinterpret_cast<uint16_t*>(dst) = v;
      }
      p += row_step;
    }
  }

  // Units [first, first + count) of copy_async (the spread mainloop issues a
  // k-tile in slices). first and count are constants after unrolling.
  __device__ __forceinline__ void copy_async_slice(char* smem_stage, int kt, int first, int count) const {
    static_assert(kAccessBytes >= 4, "GmemTileLoader: sliced requests need cp.async (4+ byte units)");
    int const kcol = k_column_valid(kt);
    const char* p = tile_pointer(kt) + int64_t(first) * row_step;
#pragma unroll
    for (int j = 0; j < count; ++j) {
      int const i = first + j;
      using Policy = std::conditional_t<kAccessBytes == 16, arch::CacheGlobal, arch::CacheAlways>;
      arch::cp_async_zfill<kAccessBytes, Policy>(smem_stage + smem_offset(i), p, uint32_t(unit_valid(i, kt, kcol)));
      p += row_step;
    }
  }

  // Register staging for the SingleStage and Pipelined policies.
  Vec staged[kPerThread];

  __device__ __forceinline__ void load_registers(int kt) {
    int const kcol = k_column_valid(kt);
    const char* p = tile_pointer(kt);
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
      int const valid = unit_valid(i, kt, kcol);
      if (valid == kAccessBytes) {
        staged[i] = *reinterpret_cast<const Vec*>(p);
      } else {
        // Partial unit at the edge: element by element, zeros past the end.
        union {
          Vec v;
          Elem e[kAccessBytes / kElemBytes];
        } u;
        u.v = Vec{};
#pragma unroll
        for (int e = 0; e < kAccessBytes / kElemBytes; ++e)
          if (e * kElemBytes < valid) u.e[e] = reinterpret_cast<const Elem*>(p)[e];
        staged[i] = u.v;
      }
      p += row_step;
    }
  }

  __device__ __forceinline__ void store_registers(char* smem_stage) const {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i)
      *reinterpret_cast<Vec*>(smem_stage + smem_offset(i)) = staged[i];
  }
};

// ---------------------------------------------------------------------------
// Shared -> registers for one warp (the seed's tXsA -> tXrA / tCrA).
//
// A fragment of m16n8k16 (16-bit): 4 regs, reg j = 8x8 block (rows (j&1)*8,
// k (j>>1)*8); lane l holds row l/4, k 2*(l%4)+{0,1}. One ldmatrix.x4 per
// 16x16 block: lane l addresses row l%8 of block l/8. For a K-major tile the
// block rows are m (no transpose); for an M-major tile they are k (.trans).
// B fragment (k x n8): 2 regs, reg j = k (j*8), lane l holds n l/4, k
// 2*(l%4)+{0,1}; one ldmatrix.x4 covers two n8 blocks.
// tf32 m16n8k8 has the same block structure with 4-float (16-byte) chunks in
// place of 8 halves, so the K-major path is identical (ldmatrix of b16 pairs
// moves whole 32-bit words); the M/N-major tf32 path cannot use .trans (it
// would split words) and reads its 32-bit elements one by one.
template <class Cfg, class Elem>
struct WarpFragmentLoader {
  static constexpr int kElemBytes = int(sizeof(Elem));
  static constexpr bool kTf32 = kElemBytes == 4;
  static constexpr int kMmaM = Cfg::kMmaM;
  static constexpr int kMmaN = Cfg::kMmaN;
  static constexpr int kRowBytesA = Cfg::kAKMajor ? 128 : Cfg::kBlockM * kElemBytes;
  static constexpr int kRowBytesB = Cfg::kBKMajor ? 128 : Cfg::kBlockN * kElemBytes;
  using SmemA = SwizzledSmemTile<Cfg::kAKMajor ? Cfg::kBlockM : Cfg::kBlockK, kRowBytesA>;
  using SmemB = SwizzledSmemTile<Cfg::kBKMajor ? Cfg::kBlockN : Cfg::kBlockK, kRowBytesB>;

  int lane8;  // l % 8: the row of the 8x8 block this lane addresses
  int quad;   // l / 8: which of the four blocks
  int warp_m0, warp_n0;

  __device__ __forceinline__ WarpFragmentLoader(int warp_m, int warp_n)
      : WarpFragmentLoader(warp_m, warp_n, int(threadIdx.x) & 31) {}
  TESSERA_HOST_DEVICE TESSERA_INLINE WarpFragmentLoader(int warp_m, int warp_n, int lane_id) {
    lane8 = lane_id & 7;
    quad = lane_id >> 3;
    warp_m0 = warp_m * Cfg::kWarpM;
    warp_n0 = warp_n * Cfg::kWarpN;
  }

  // ---- addresses (byte offsets within a stage; host-callable for tests) ----

  // ldmatrix row address of this lane for A tile mi of k-step ks, as a row
  // part and a (swizzled) column part: byte offset = row part + column part.
  TESSERA_HOST_DEVICE TESSERA_INLINE int a_row_bytes(int ks, int mi) const {
    if constexpr (Cfg::kAKMajor) return (warp_m0 + (quad & 1) * 8 + lane8 + mi * 16) * kRowBytesA;  // rows m
    else return (ks * 16 + (quad >> 1) * 8 + lane8) * kRowBytesA;                                   // rows k
  }
  TESSERA_HOST_DEVICE TESSERA_INLINE int a_col_bytes(int ks, int mi) const {
    if constexpr (Cfg::kAKMajor) return ((2 * ks + (quad >> 1)) ^ lane8) << 4;  // chunk 2*ks + (quad>>1)
    else return ((((warp_m0 + (quad & 1) * 8) >> 3) + 2 * mi) ^ lane8) << 4;   // chunk (m0 + mi*16)/8
  }
  TESSERA_HOST_DEVICE TESSERA_INLINE int a_ldmatrix_offset(int ks, int mi) const {
    return a_row_bytes(ks, mi) + a_col_bytes(ks, mi);
  }
  // Same for B tiles 2*np, 2*np+1 (one ldmatrix.x4).
  TESSERA_HOST_DEVICE TESSERA_INLINE int b_row_bytes(int ks, int np) const {
    if constexpr (Cfg::kBKMajor) return (warp_n0 + (quad >> 1) * 8 + lane8 + np * 16) * kRowBytesB;  // rows n
    else return (ks * 16 + (quad & 1) * 8 + lane8) * kRowBytesB;                                    // rows k
  }
  TESSERA_HOST_DEVICE TESSERA_INLINE int b_col_bytes(int ks, int np) const {
    if constexpr (Cfg::kBKMajor) return ((2 * ks + (quad & 1)) ^ lane8) << 4;
    else return ((((warp_n0 + (quad >> 1) * 8) >> 3) + 2 * np) ^ lane8) << 4;
  }
  TESSERA_HOST_DEVICE TESSERA_INLINE int b_ldmatrix_offset(int ks, int np) const {
    return b_row_bytes(ks, np) + b_col_bytes(ks, np);
  }
  // M/N-major tf32: the 32-bit element behind register r of A tile mi / B tile ni.
  TESSERA_HOST_DEVICE TESSERA_INLINE int a_scalar_offset(int ks, int mi, int r) const {
    int const g = quad * 2 + (lane8 >> 2), t = lane8 & 3;  // lane / 4, lane % 4
    int const m = warp_m0 + mi * 16 + g + (r & 1) * 8;
    int const k = ks * 8 + t + (r >> 1) * 4;
    return SmemA::offset(k, m >> 2) + (m & 3) * 4;
  }
  TESSERA_HOST_DEVICE TESSERA_INLINE int b_scalar_offset(int ks, int ni, int r) const {
    int const g = quad * 2 + (lane8 >> 2), t = lane8 & 3;  // lane / 4, lane % 4
    int const n = warp_n0 + ni * 8 + g;
    int const k = ks * 8 + t + r * 4;
    return SmemB::offset(k, n >> 2) + (n & 3) * 4;
  }

  // ---- loads ----------------------------------------------------------------

  __device__ __forceinline__ static uint32_t lds32(const char* p) { return *reinterpret_cast<const uint32_t*>(p); }

  // a[mi][0..3] for k-step ks of the stage at sA.
  __device__ __forceinline__ void load_a(const char* sA, int ks, uint32_t (&a)[kMmaM][4]) const {
    if constexpr (!kTf32 || Cfg::kAKMajor) {
#pragma unroll
      for (int mi = 0; mi < kMmaM; ++mi)
        arch::ldmatrix<4, !Cfg::kAKMajor>(sA + a_row_bytes(ks, mi) + a_col_bytes(ks, mi), a[mi]);
    } else {
#pragma unroll
      for (int mi = 0; mi < kMmaM; ++mi)
#pragma unroll
        for (int r = 0; r < 4; ++r) a[mi][r] = lds32(sA + a_scalar_offset(ks, mi, r));
    }
    if constexpr (kTf32) {
#pragma unroll
      for (int mi = 0; mi < kMmaM; ++mi)
#pragma unroll
        for (int r = 0; r < 4; ++r) a[mi][r] = round_to_tf32(a[mi][r]);
    }
  }

  // b[ni][0..1] for k-step ks of the stage at sB.
  __device__ __forceinline__ void load_b(const char* sB, int ks, uint32_t (&b)[kMmaN][2]) const {
    load_b_range<0, kMmaN>(sB, ks, b);
  }

  // b[i][0..1] = B tile kNi0 + i, i < kCount, for k-step ks (kNi0 and kCount even).
  template <int kNi0, int kCount>
  __device__ __forceinline__ void load_b_range(const char* sB, int ks, uint32_t (&b)[kCount][2]) const {
    static_assert(kNi0 % 2 == 0 && kCount % 2 == 0 && kNi0 + kCount <= kMmaN,
                  "WarpFragmentLoader: a B range is whole ldmatrix.x4 pairs of tiles");
    if constexpr (!kTf32 || Cfg::kBKMajor) {
#pragma unroll
      for (int p = 0; p < kCount / 2; ++p) {
        int const np = kNi0 / 2 + p;
        uint32_t r[4];
        arch::ldmatrix<4, !Cfg::kBKMajor>(sB + b_row_bytes(ks, np) + b_col_bytes(ks, np), r);
        b[2 * p][0] = r[0];
        b[2 * p][1] = r[1];
        b[2 * p + 1][0] = r[2];
        b[2 * p + 1][1] = r[3];
      }
    } else {
#pragma unroll
      for (int i = 0; i < kCount; ++i)
#pragma unroll
        for (int r = 0; r < 2; ++r) b[i][r] = lds32(sB + b_scalar_offset(ks, kNi0 + i, r));
    }
    if constexpr (kTf32) {
#pragma unroll
      for (int i = 0; i < kCount; ++i)
#pragma unroll
        for (int r = 0; r < 2; ++r) b[i][r] = round_to_tf32(b[i][r]);
    }
  }
};

// ---------------------------------------------------------------------------
// The mainloop: accumulates the CTA's (BLK_M, BLK_N) tile over all of K into
// this thread's accumulator fragments. One template, three policies.
template <class Cfg, class Elem, class Acc>
struct Sm80Mainloop {
  using Op = typename MmaFor<Elem, Acc>::Op;
  using FragD = typename Op::FragD;
  static constexpr int kMmaM = Cfg::kMmaM;
  static constexpr int kMmaN = Cfg::kMmaN;
  static constexpr int kKSteps = Cfg::kKSteps;
  static constexpr int kStages = Cfg::kStages;
  template <class P>
  static constexpr bool spread_of() {
    if constexpr (requires { P::kSpread; }) return P::kSpread;
    else return false;
  }
  static constexpr bool kSpread = spread_of<typename Cfg::Mainloop>();
  // f16 accumulators take half the registers of f32 ones: room for fully
  // unrolled interior copies (immediate offsets, no loop).
  // NOTE: run 47 (H100, steady state, interleaved): the seed problem with
  // f16 accumulation 406.5-412.9 TFLOP/s unrolled by 2, 430.2-435.4 fully
  // unrolled (+5.6%); the f16-accumulating kernels stay at <= 230 registers.
  // The 64x128 warp tile (128 accumulator registers) has none to spare.
  static constexpr bool kUnrollCopies = sizeof(Acc) == 2 && Cfg::kMmaN < 16;
  using LoaderA = GmemTileLoader<Elem, Cfg::kAKMajor, Cfg::kBlockM, Cfg::kBlockK, Cfg::kThreads, Cfg::kAccessBytes,
                                 kUnrollCopies>;
  using LoaderB = GmemTileLoader<Elem, Cfg::kBKMajor, Cfg::kBlockN, Cfg::kBlockK, Cfg::kThreads, Cfg::kAccessBytes,
                                 kUnrollCopies>;
  using Frags = WarpFragmentLoader<Cfg, Elem>;
  static_assert(LoaderA::Smem::kBytes == Cfg::kStageBytesA && LoaderB::Smem::kBytes == Cfg::kStageBytesB,
                "Sm80Mainloop: loader tile and configured stage size disagree");

  // Register fragments of one k-step (the seed's tCrA(_,_,k), tCrB(_,_,k)).
  struct KStepFrags {
    uint32_t a[kMmaM][4];
    uint32_t b[kMmaN][2];
  };

  __device__ __forceinline__ static void mma_kstep(FragD (&acc)[kMmaM][kMmaN], const KStepFrags& f) {
    // NOTE: serpentine over n so consecutive mma.sync share the A or B
    // registers of the previous one (operand reuse cache).
#pragma unroll
    for (int mi = 0; mi < kMmaM; ++mi)
#pragma unroll
      for (int nj = 0; nj < kMmaN; ++nj) {
        int const ni = (mi & 1) ? kMmaN - 1 - nj : nj;
        Op::fma(acc[mi][ni], f.a[mi], f.b[ni], acc[mi][ni]);
      }
  }

  __device__ __forceinline__ static void load_kstep(const Frags& frags, const char* sA, const char* sB,
                                                    int ks, KStepFrags& f) {
    frags.load_a(sA, ks, f.a);
    frags.load_b(sB, ks, f.b);
  }

  // NOTE: a warp tile of 16+ B tiles (64x128) cannot double-buffer whole
  // k-step fragments: 2 x (16 + 32) registers beside 128 f16 accumulators
  // spilled 148 bytes at 255 (t128x256_w4). kSplitN keeps two A fragments
  // and the two N halves of one B fragment instead (2 x 16 + 2 x 16): the
  // second half of k-step ks is loaded while the first half multiplies, and
  // the first half of k-step ks+1 (with its A) while the second multiplies.
  // ptxas (sm_90a): t128x256_w4s2 240 registers through the mainloop (its
  // 16-byte stack is the band epilogue's); run 225: it ties the seed tile
  // on whole waves (docs/performance.md, Ampere v6).
  static constexpr bool kSplitN = kMmaN >= 16;
  static constexpr int kHalfN = kMmaN / 2;
  static_assert(!kSplitN || (kMmaN % 4 == 0 && kKSteps % 2 == 0 && !kSpread),
                "Sm80Mainloop: the split-N fragment order needs an even number of ldmatrix.x4 per half, an even "
                "number of k-steps and no spread requests");

  // The products of N half h of k-step fragments (a, bh).
  template <int h>
  __device__ __forceinline__ static void mma_half(FragD (&acc)[kMmaM][kMmaN], const uint32_t (&a)[kMmaM][4],
                                                  const uint32_t (&bh)[kHalfN][2]) {
#pragma unroll
    for (int mi = 0; mi < kMmaM; ++mi)
#pragma unroll
      for (int nj = 0; nj < kHalfN; ++nj) {
        int const ni = (mi & 1) ? kHalfN - 1 - nj : nj;
        Op::fma(acc[mi][h * kHalfN + ni], a[mi], bh[ni], acc[mi][h * kHalfN + ni]);
      }
  }

  __device__ static void run(char* smem, LoaderA& la, LoaderB& lb, const Frags& frags, int k_tiles,
                             FragD (&acc)[kMmaM][kMmaN]) {
    char* const sA = smem;                                // (BLK_M,BLK_K,PIPE)
    char* const sB = smem + kStages * Cfg::kStageBytesA;  // (BLK_N,BLK_K,PIPE)
    auto stage_a = [&](int s) { return sA + s * Cfg::kStageBytesA; };
    auto stage_b = [&](int s) { return sB + s * Cfg::kStageBytesB; };

    if constexpr (std::is_same_v<typename Cfg::Mainloop, MainloopSingleStage>) {
      // Seed 001 single stage: load, barrier, compute, barrier. Nothing overlaps.
      for (int kt = 0; kt < k_tiles; ++kt) {
        la.load_registers(kt);
        lb.load_registers(kt);
        la.store_registers(stage_a(0));
        lb.store_registers(stage_b(0));
        __syncthreads();
#pragma unroll
        for (int ks = 0; ks < kKSteps; ++ks) {
          KStepFrags f;
          load_kstep(frags, stage_a(0), stage_b(0), ks, f);
          mma_kstep(acc, f);
        }
        __syncthreads();
      }
    } else if constexpr (std::is_same_v<typename Cfg::Mainloop, MainloopPipelined>) {
      // Seed 001 pipelined: 2 smem stages + a register double buffer. The
      // global loads of k-tile kt+1 are issued at k-step 0 of k-tile kt and
      // land in smem at its last k-step; one barrier per k-tile.
      if (k_tiles <= 0) return;
      la.load_registers(0);
      lb.load_registers(0);
      la.store_registers(stage_a(0));
      lb.store_registers(stage_b(0));
      __syncthreads();
      int read = 0;
      KStepFrags f[2];
      load_kstep(frags, stage_a(0), stage_b(0), 0, f[0]);
      for (int kt = 0; kt < k_tiles; ++kt) {
        bool const has_next = kt + 1 < k_tiles;
#pragma unroll
        for (int ks = 0; ks < kKSteps; ++ks) {
          if (ks == kKSteps - 1) {
            if (has_next) {
              la.store_registers(stage_a(read ^ 1));
              lb.store_registers(stage_b(read ^ 1));
            }
            __syncthreads();
            read ^= 1;
          }
          load_kstep(frags, stage_a(read), stage_b(read), (ks + 1) % kKSteps, f[(ks + 1) & 1]);
          if (ks == 0 && has_next) {
            la.load_registers(kt + 1);
            lb.load_registers(kt + 1);
          }
          mma_kstep(acc, f[ks & 1]);
        }
      }
    } else {
      // Seed 000 / 001 multistage: a ring of kStages smem tiles fed by cp.async.
      // Prologue: request k-tiles 0 .. kStages-2, one commit group each.
#pragma unroll
      for (int s = 0; s < kStages - 1; ++s) {
        if (s < k_tiles) {
          la.copy_async(stage_a(s), s);
          lb.copy_async(stage_b(s), s);
        }
        arch::cp_async_fence();
      }
      // k-tile 0 complete (at most kStages-2 groups still in flight).
      arch::cp_async_wait<kStages - 2>();
      __syncthreads();

      int read = 0;             // stage holding k-tile kt
      int write = kStages - 1;  // stage receiving k-tile kt + kStages - 1
      int kt_load = kStages - 1;
      if constexpr (kSplitN) {
        uint32_t a[2][kMmaM][4];
        uint32_t b0[kHalfN][2], b1[kHalfN][2];
        frags.load_a(stage_a(0), 0, a[0]);
        frags.template load_b_range<0, kHalfN>(stage_b(0), 0, b0);
        for (int kt = 0; kt < k_tiles; ++kt) {
#pragma unroll
          for (int ks = 0; ks < kKSteps; ++ks) {
            frags.template load_b_range<kHalfN, kHalfN>(stage_b(read), ks, b1);
            if (ks == 0) {
              if (kt_load < k_tiles) {
                la.copy_async(stage_a(write), kt_load);
                lb.copy_async(stage_b(write), kt_load);
              }
              arch::cp_async_fence();
              ++kt_load;
              write = write + 1 == kStages ? 0 : write + 1;
            }
            mma_half<0>(acc, a[ks & 1], b0);
            if (ks == kKSteps - 1) {
              // As below: the next k-tile's stage complete and visible, and
              // every warp done with the stage that k-step 0 overwrites.
              arch::cp_async_wait<kStages - 2>();
              __syncthreads();
              read = read + 1 == kStages ? 0 : read + 1;
            }
            frags.load_a(stage_a(read), (ks + 1) % kKSteps, a[(ks + 1) & 1]);
            frags.template load_b_range<0, kHalfN>(stage_b(read), (ks + 1) % kKSteps, b0);
            mma_half<1>(acc, a[ks & 1], b1);
          }
        }
        arch::cp_async_wait<0>();
        return;
      }
      // NOTE: fragments are double-buffered across k-steps: the ldmatrix of
      // k-step ks+1 is issued before the mma.sync of k-step ks, so the shared
      // memory latency hides behind 2*kMmaM*kMmaN/2 tensor-core instructions.
      KStepFrags f[2];
      load_kstep(frags, stage_a(0), stage_b(0), 0, f[0]);
      for (int kt = 0; kt < k_tiles; ++kt) {
#pragma unroll
        for (int ks = 0; ks < kKSteps; ++ks) {
          if constexpr (kSpread) {
            // NOTE: slice ks of k-tile kt_load's requests (kPerThread/kKSteps
            // units of A and of B): the LSU sees a few cp.async per k-step
            // instead of a burst of all of them at k-step 0. The stage being
            // written was last read in k-tile kt-1, before the barrier that
            // ended it. The group is committed before the wait below, so the
            // wait count keeps its meaning.
            if (kt_load < k_tiles) {
              la.copy_async_slice(stage_a(write), kt_load, ks * LoaderA::kPerThread / kKSteps,
                                  (ks + 1) * LoaderA::kPerThread / kKSteps - ks * LoaderA::kPerThread / kKSteps);
              lb.copy_async_slice(stage_b(write), kt_load, ks * LoaderB::kPerThread / kKSteps,
                                  (ks + 1) * LoaderB::kPerThread / kKSteps - ks * LoaderB::kPerThread / kKSteps);
            }
            if (ks == kKSteps - 1) {
              arch::cp_async_fence();
              ++kt_load;
              write = write + 1 == kStages ? 0 : write + 1;
            }
          }
          if (ks == kKSteps - 1) {
            // Next k-tile's stage must be complete and visible; every warp is
            // also done reading the stage that k-step 0 below overwrites.
            arch::cp_async_wait<kStages - 2>();
            __syncthreads();
            read = read + 1 == kStages ? 0 : read + 1;
          }
          load_kstep(frags, stage_a(read), stage_b(read), (ks + 1) % kKSteps, f[(ks + 1) & 1]);
          if (!kSpread && ks == 0) {
            // NOTE: the next request is issued after the first ldmatrix of the
            // k-tile, so the copy engine and the LSU queue are not fighting
            // for the first fragments.
            if (kt_load < k_tiles) {
              la.copy_async(stage_a(write), kt_load);
              lb.copy_async(stage_b(write), kt_load);
            }
            arch::cp_async_fence();
            ++kt_load;
            write = write + 1 == kStages ? 0 : write + 1;
          }
          mma_kstep(acc, f[ks & 1]);
        }
      }
      // Drain: the epilogue reuses this memory.
      arch::cp_async_wait<0>();
    }
  }
};

}  // namespace tessera::kernels::sm80
