// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Host simulation of the sm80_tensorop data movement, built from the kernel's
// own address functions (no GPU needed, so it also runs in CI):
//   global -> shared: every thread's units (GmemTileLoader) copied into a
//     shared-memory image; every byte of a stage must be written exactly
//     once, in-bounds bytes from the right global address, the rest zero;
//   shared -> registers: ldmatrix / ldmatrix.trans / 32-bit loads simulated
//     per the PTX definition from each lane's address (WarpFragmentLoader);
//   registers -> products: fragments decoded with the PTX mma.sync fragment
//     tables and multiplied; the CTA tile must equal the exact product;
//   epilogue: accumulator fragments staged through Sm80Epilogue's swizzle
//     and read back by the 16-byte store pattern: a bijection, same values.
// Operands are small integers, so every product is exact.
// No kernels here: the device passes (sm_80, sm_90a) compile nothing but
// this guard, and the host pass does all the work (tests/CMakeLists.txt,
// "host-only .cu tests").
#if !defined(__CUDA_ARCH__)

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <tessera/gemm/sm80_tensorop.cuh>
#include <tessera/gemm/sm80_ws_gemm.cuh>

namespace {

using namespace tessera::kernels;
using namespace tessera::kernels::sm80;

template <class Elem>
void put(unsigned char* dst, double v) {
  if constexpr (sizeof(Elem) == 4) {
    float f = float(v);
    std::memcpy(dst, &f, 4);
  } else {
    Elem h = Elem(float(v));
    std::memcpy(dst, &h, 2);
  }
}
template <class Elem>
double get(const unsigned char* src) {
  if constexpr (sizeof(Elem) == 4) {
    float f;
    std::memcpy(&f, src, 4);
    return double(f);
  } else {
    Elem h;
    std::memcpy(&h, src, 2);
    return double(float(h));
  }
}
std::uint32_t word(const std::vector<unsigned char>& s, int off) {
  std::uint32_t w;
  std::memcpy(&w, s.data() + off, 4);
  return w;
}
std::uint16_t half_word(const std::vector<unsigned char>& s, int off) {
  std::uint16_t w;
  std::memcpy(&w, s.data() + off, 2);
  return w;
}

double a_value(int i, int k) { return double((i * 131 + k * 71 + 17) % 9) - 4.0; }
double b_value(int k, int j) { return double((k * 37 + j * 101 + 5) % 7) - 3.0; }

// One operand in global memory (kernel orientation), padding filled with a
// value that would be noticed if read.
struct Operand {
  std::vector<unsigned char> bytes;
  std::int64_t ld = 0;
};

template <class Elem, bool kKMajor>
Operand make_operand(int mn, int k, std::int64_t ld, bool is_a) {
  Operand op;
  op.ld = ld;
  int const rows = kKMajor ? mn : k;
  op.bytes.assign(std::size_t(rows * ld * std::int64_t(sizeof(Elem)) + 64), 0);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < ld; ++c) {
      int const i = int(kKMajor ? r : c), kk = int(kKMajor ? c : r);  // i: M or N index
      bool const inside = kKMajor ? c < k : c < mn;
      double const v = !inside ? 1000.0 : (is_a ? a_value(i, kk) : b_value(kk, i));
      put<Elem>(op.bytes.data() + (r * ld + c) * std::int64_t(sizeof(Elem)), v);
    }
  return op;
}

// Threads whose k-tile took the loader's interior path (whole units, no
// byte counts) in fill_stage since the last reset.
int g_interior_threads = 0;

// Copy one k-tile of one operand into a shared-memory image with every
// thread's loader, as GmemTileLoader::copy_async does: whole units when
// interior(kt) holds, per-unit byte counts otherwise.
template <class Loader>
void fill_stage(std::vector<unsigned char>& smem, const Operand& op, int mn0, int mn_extent, int k_extent, int kt,
                int threads, int access) {
  std::vector<int> written(smem.size(), 0);
  const char* base = reinterpret_cast<const char*>(op.bytes.data());
  const char* end = base + op.bytes.size() - 64;
  for (int tid = 0; tid < threads; ++tid) {
    Loader ld(base, op.ld, mn0, mn_extent, k_extent, tid);
    int const kcol = ld.k_column_valid(kt);
    const char* p = ld.tile_pointer(kt);
    bool const interior = access >= 4 && ld.interior(kt);
    g_interior_threads += interior ? 1 : 0;
    for (int i = 0; i < Loader::kPerThread; ++i) {
      int const valid = interior ? access : ld.unit_valid(i, kt, kcol);
      int const off = ld.smem_offset(i);
      ASSERT_GE(off, 0);
      ASSERT_LE(off + access, int(smem.size()));
      ASSERT_EQ(off % access, 0) << "shared destination not aligned to the access";
      ASSERT_GE(valid, 0);
      ASSERT_LE(valid, access);
      if (valid > 0) {
        ASSERT_GE(p, base);
        ASSERT_LE(p + valid, end) << "unit reads past the operand";
        ASSERT_EQ((p - base) % access, 0) << "global source not aligned to the access";
      }
      for (int b = 0; b < access; ++b) {
        smem[std::size_t(off + b)] = b < valid ? static_cast<unsigned char>(p[b]) : 0;
        ++written[std::size_t(off + b)];
      }
      p += ld.row_step;
    }
  }
  for (std::size_t b = 0; b < smem.size(); ++b) ASSERT_EQ(written[b], 1) << "stage byte " << b << " written " << written[b] << " times";
}

// Registers of one ldmatrix.x4 (or .trans) from the 32 lanes' row addresses.
void ldmatrix_x4(const std::vector<unsigned char>& smem, const int (&addr)[32], bool trans, std::uint32_t (&reg)[32][4]) {
  for (int l = 0; l < 32; ++l)
    for (int j = 0; j < 4; ++j) {
      if (!trans) {
        reg[l][j] = word(smem, addr[8 * j + l / 4] + 4 * (l % 4));
      } else {
        std::uint32_t const lo = half_word(smem, addr[8 * j + 2 * (l % 4)] + 2 * (l / 4));
        std::uint32_t const hi = half_word(smem, addr[8 * j + 2 * (l % 4) + 1] + 2 * (l / 4));
        reg[l][j] = lo | (hi << 16);
      }
    }
}

template <class Elem>
double elem_from_reg(std::uint32_t r, int h) {
  unsigned char b[4];
  std::memcpy(b, &r, 4);
  return sizeof(Elem) == 4 ? get<Elem>(b) : get<Elem>(b + 2 * h);
}

template <class Cfg, class Elem>
void simulate(int m, int n, int k, int tile_m, int tile_n, std::int64_t pad_a, std::int64_t pad_b) {
  using ML = Sm80Mainloop<Cfg, Elem, float>;
  using LA = typename ML::LoaderA;
  using LB = typename ML::LoaderB;
  using FL = typename ML::Frags;
  using Epi = Sm80Epilogue<Cfg>;
  constexpr int E = int(sizeof(Elem));
  constexpr bool kTf32 = E == 4;
  constexpr int BM = Cfg::kBlockM, BN = Cfg::kBlockN, BK = Cfg::kBlockK;
  int const m0 = tile_m * BM, n0 = tile_n * BN;

  std::int64_t const lda = (Cfg::kAKMajor ? k : m) + pad_a, ldb = (Cfg::kBKMajor ? k : n) + pad_b;
  Operand const a = make_operand<Elem, Cfg::kAKMajor>(m, k, lda, true);
  Operand const b = make_operand<Elem, Cfg::kBKMajor>(n, k, ldb, false);

  std::vector<double> acc(std::size_t(BM * BN), 0.0);
  int const k_tiles = (k + BK - 1) / BK;
  for (int kt = 0; kt < k_tiles; ++kt) {
    std::vector<unsigned char> sa(std::size_t(Cfg::kStageBytesA), 0xCD), sb(std::size_t(Cfg::kStageBytesB), 0xCD);
    fill_stage<LA>(sa, a, m0, m, k, kt, Cfg::kThreads, Cfg::kAccessBytes);
    fill_stage<LB>(sb, b, n0, n, k, kt, Cfg::kThreads, Cfg::kAccessBytes);
    if (::testing::Test::HasFatalFailure()) return;

    for (int warp = 0; warp < Cfg::kThreads / 32; ++warp) {
      int const warp_m = warp % Cfg::kWarpsM, warp_n = warp / Cfg::kWarpsM;
      for (int ks = 0; ks < Cfg::kKSteps; ++ks) {
        std::uint32_t ra[32][Cfg::kMmaM][4], rb[32][Cfg::kMmaN][2];
        for (int mi = 0; mi < Cfg::kMmaM; ++mi) {
          if (!kTf32 || Cfg::kAKMajor) {
            int addr[32];
            for (int l = 0; l < 32; ++l) {
              addr[l] = FL(warp_m, warp_n, l).a_ldmatrix_offset(ks, mi);
              ASSERT_EQ(addr[l] % 16, 0);
              ASSERT_LE(addr[l] + 16, Cfg::kStageBytesA);
            }
            std::uint32_t reg[32][4];
            ldmatrix_x4(sa, addr, !Cfg::kAKMajor, reg);
            for (int l = 0; l < 32; ++l)
              for (int r = 0; r < 4; ++r) ra[l][mi][r] = reg[l][r];
          } else {
            for (int l = 0; l < 32; ++l)
              for (int r = 0; r < 4; ++r) ra[l][mi][r] = word(sa, FL(warp_m, warp_n, l).a_scalar_offset(ks, mi, r));
          }
        }
        for (int np = 0; np < Cfg::kMmaN / 2; ++np) {
          if (!kTf32 || Cfg::kBKMajor) {
            int addr[32];
            for (int l = 0; l < 32; ++l) {
              addr[l] = FL(warp_m, warp_n, l).b_ldmatrix_offset(ks, np);
              ASSERT_EQ(addr[l] % 16, 0);
              ASSERT_LE(addr[l] + 16, Cfg::kStageBytesB);
            }
            std::uint32_t reg[32][4];
            ldmatrix_x4(sb, addr, !Cfg::kBKMajor, reg);
            for (int l = 0; l < 32; ++l) {
              rb[l][2 * np][0] = reg[l][0];
              rb[l][2 * np][1] = reg[l][1];
              rb[l][2 * np + 1][0] = reg[l][2];
              rb[l][2 * np + 1][1] = reg[l][3];
            }
          } else {
            for (int l = 0; l < 32; ++l)
              for (int ni = 2 * np; ni < 2 * np + 2; ++ni)
                for (int r = 0; r < 2; ++r) rb[l][ni][r] = word(sb, FL(warp_m, warp_n, l).b_scalar_offset(ks, ni, r));
          }
        }
        // mma.sync semantics (PTX fragment tables), g = lane/4, t = lane%4.
        constexpr int KI = Cfg::kInstK;
        for (int mi = 0; mi < Cfg::kMmaM; ++mi)
          for (int ni = 0; ni < Cfg::kMmaN; ++ni) {
            double fa[16][KI], fb[KI][8];
            int seen_a[16][KI] = {}, seen_b[KI][8] = {};
            for (int l = 0; l < 32; ++l) {
              int const g = l / 4, t = l % 4;
              for (int r = 0; r < 4; ++r)
                for (int h = 0; h < (kTf32 ? 1 : 2); ++h) {
                  int const row = g + 8 * (r & 1);
                  int const col = kTf32 ? t + 4 * (r >> 1) : 2 * t + 8 * (r >> 1) + h;
                  fa[row][col] = elem_from_reg<Elem>(ra[l][mi][r], h);
                  ++seen_a[row][col];
                }
              for (int r = 0; r < 2; ++r)
                for (int h = 0; h < (kTf32 ? 1 : 2); ++h) {
                  int const kk = kTf32 ? t + 4 * r : 2 * t + 8 * r + h;
                  fb[kk][g] = elem_from_reg<Elem>(rb[l][ni][r], h);
                  ++seen_b[kk][g];
                }
            }
            for (int i = 0; i < 16; ++i)
              for (int kk = 0; kk < KI; ++kk) ASSERT_EQ(seen_a[i][kk], 1);
            for (int kk = 0; kk < KI; ++kk)
              for (int j = 0; j < 8; ++j) ASSERT_EQ(seen_b[kk][j], 1);
            for (int i = 0; i < 16; ++i)
              for (int j = 0; j < 8; ++j) {
                double s = 0;
                for (int kk = 0; kk < KI; ++kk) s += fa[i][kk] * fb[kk][j];
                int const row = warp_m * Cfg::kWarpM + mi * 16 + i, col = warp_n * Cfg::kWarpN + ni * 8 + j;
                acc[std::size_t(row * BN + col)] += s;
              }
          }
      }
    }
  }

  // The tile must be the exact product (zero outside M, N).
  int bad = 0;
  for (int i = 0; i < BM; ++i)
    for (int j = 0; j < BN; ++j) {
      double want = 0;
      if (m0 + i < m && n0 + j < n)
        for (int kk = 0; kk < k; ++kk) want += a_value(m0 + i, kk) * b_value(kk, n0 + j);
      if (acc[std::size_t(i * BN + j)] != want && bad++ < 5)
        ADD_FAILURE() << "D(" << m0 + i << "," << n0 + j << ") = " << acc[std::size_t(i * BN + j)] << ", expected "
                      << want;
    }
  ASSERT_EQ(bad, 0);

  // Epilogue: fragments -> staging tile -> 16-byte store pattern, band by
  // band when it runs in passes (Cfg::kEpiloguePasses; one band otherwise).
  constexpr int kBands = Cfg::kEpiloguePasses, BR = Epi::kBlockM;
  static_assert(BR * kBands == BM, "the bands cover the tile");
  std::vector<int> out4(std::size_t(BM * BN), 0), out8(std::size_t(BM * BN), 0);
  for (int band = 0; band < kBands; ++band) {
    auto tile_value = [&](int row, int col) { return float(acc[std::size_t((band * BR + row) * BN + col)]); };
    std::vector<float> stage(std::size_t(BR * BN), -1.0f);
    std::vector<int> seen(std::size_t(BR * BN), 0);
    for (int warp = 0; warp < Cfg::kThreads / 32; ++warp) {
      int const warp_m = warp % Cfg::kWarpsM;
      if (warp_m / Epi::kBandWarpsM != band) continue;
      for (int l = 0; l < 32; ++l)
        for (int mi = 0; mi < Cfg::kMmaM; ++mi)
          for (int ni = 0; ni < Cfg::kMmaN; ++ni)
            for (int half = 0; half < 2; ++half) {
              int row, col;
              Epi::fragment_coord(warp_m % Epi::kBandWarpsM, warp / Cfg::kWarpsM, l, mi, ni, half, row, col);
              ASSERT_LT(row, BR) << "fragment outside its band";
              int const off = Epi::offset(row, col);
              ASSERT_EQ(off % 8, 0) << "float2 staging store misaligned";
              ASSERT_EQ(Epi::offset(row, col + 1), off + 4);
              for (int e = 0; e < 2; ++e) {
                stage[std::size_t((off + 4 * e) / 4)] = tile_value(row, col + e);
                ++seen[std::size_t((off + 4 * e) / 4)];
              }
            }
    }
    for (std::size_t s = 0; s < seen.size(); ++s) ASSERT_EQ(seen[s], 1) << "staging slot " << s << " of band " << band;
    for (int vec : {4, 8}) {
      std::vector<int>& out = vec == 4 ? out4 : out8;
      int const per_thread = BR * BN / vec / Cfg::kThreads;
      for (int tid = 0; tid < Cfg::kThreads; ++tid)
        for (int i = 0; i < per_thread; ++i) {
          int row, col;
          if (vec == 4) Epi::template store_coord<4>(tid, i, row, col);
          else Epi::template store_coord<8>(tid, i, row, col);
          for (int q = 0; q < vec / 4; ++q) {
            int const off = Epi::offset(row, col + 4 * q);
            ASSERT_EQ(off % 16, 0) << "float4 staging load misaligned";
            for (int e = 0; e < 4; ++e) {
              ASSERT_EQ(stage[std::size_t(off / 4 + e)], tile_value(row, col + 4 * q + e));
              ++out[std::size_t((band * BR + row) * BN + col + 4 * q + e)];
            }
          }
        }
    }
  }
  for (int vec : {4, 8}) {
    std::vector<int> const& out = vec == 4 ? out4 : out8;
    for (std::size_t s = 0; s < out.size(); ++s) ASSERT_EQ(out[s], 1) << "output element " << s << " (vec " << vec << ")";
  }
}

// A problem with residues in M, N and K, for the CTA tile (1,1), and a small
// one inside tile (0,0). `aligned`: leading dimensions padded to a multiple
// of 16 bytes (plus one extra 16-byte step); otherwise padded by one element.
template <class Cfg, class Elem>
void simulate_both(bool aligned) {
  constexpr int E = int(sizeof(Elem));
  auto pad_for = [&](int extent) -> std::int64_t {
    if (!aligned) return 1;
    int const q = 16 / E;
    return std::int64_t((extent + q - 1) / q * q - extent + q);
  };
  int const m = Cfg::kBlockM + 77, n = Cfg::kBlockN + 45, k = 2 * Cfg::kBlockK + 13;
  simulate<Cfg, Elem>(m, n, k, 1, 1, pad_for(Cfg::kAKMajor ? k : m), pad_for(Cfg::kBKMajor ? k : n));
  if (::testing::Test::HasFatalFailure()) return;
  // CTA (0, 0) of the same problem lies inside M and N: its first two
  // k-tiles take the interior path, the third (13 of K) does not.
  g_interior_threads = 0;
  simulate<Cfg, Elem>(m, n, k, 0, 0, pad_for(Cfg::kAKMajor ? k : m), pad_for(Cfg::kBKMajor ? k : n));
  if (::testing::Test::HasFatalFailure()) return;
  if (Cfg::kAccessBytes >= 4) EXPECT_EQ(g_interior_threads, 2 * 2 * Cfg::kThreads) << "interior path not taken";
  int const m2 = 50, n2 = 30, k2 = 20;
  simulate<Cfg, Elem>(m2, n2, k2, 0, 0, pad_for(Cfg::kAKMajor ? k2 : m2), pad_for(Cfg::kBKMajor ? k2 : n2));
}

#define TESSERA_SIM_LAYOUTS(NAME, CONFIG, E, ELEM, ALIGNED)                      \
  TEST(Sm80Indexing, NAME##_tn) { simulate_both<CONFIG<E, true, true>, ELEM>(ALIGNED); }   \
  TEST(Sm80Indexing, NAME##_kmajorA_mnmajorB) { simulate_both<CONFIG<E, true, false>, ELEM>(ALIGNED); } \
  TEST(Sm80Indexing, NAME##_mnmajorA_kmajorB) { simulate_both<CONFIG<E, false, true>, ELEM>(ALIGNED); } \
  TEST(Sm80Indexing, NAME##_mnmajor_both) { simulate_both<CONFIG<E, false, false>, ELEM>(ALIGNED); }

TESSERA_SIM_LAYOUTS(f16_tile128x128, ConfigTile128x128, 2, __half, true)
TESSERA_SIM_LAYOUTS(bf16_tile128x256, ConfigTile128x256, 2, __nv_bfloat16, true)
TESSERA_SIM_LAYOUTS(f16_scalar, ConfigScalar, 2, __half, false)
TESSERA_SIM_LAYOUTS(f16_pipelined, ConfigPipelined, 2, __half, true)
TESSERA_SIM_LAYOUTS(tf32_tile128x128, ConfigTile128x128, 4, float, true)
TESSERA_SIM_LAYOUTS(tf32_scalar, ConfigScalar, 4, float, false)

// The tuning candidates (f16 TN only): 4x2 warps, 64x32 and 64x128 warp tiles.
TEST(Sm80Indexing, f16_t256x128_tn) { simulate_both<ConfigT256x128S3<2>, __half>(true); }
TEST(Sm80Indexing, f16_t128x128_w8_tn) { simulate_both<ConfigT128x128W8<2>, __half>(true); }
TEST(Sm80Indexing, f16_t128x256_w4_tn) { simulate_both<ConfigT128x256W4<2>, __half>(true); }
TEST(Sm80Indexing, f16_t128x256_w4s2_tn) { simulate_both<ConfigT128x256W4S2<2>, __half>(true); }
TEST(Sm80Indexing, f16_t128x128_spread_tn) { simulate_both<ConfigT128x128Spread<2>, __half>(true); }

// The copy warp (sm80_ws_gemm.cuh) fills a stage with 32 threads into the
// image the seed kernel's 128 threads make, byte for byte, so the MMA warps'
// fragment loads (checked above) read the same operands: every k-tile of an
// edge CTA (residues in M, N and K) and of an interior one.
TEST(Sm80Indexing, CopyWarpFillsTheSeedTilesStage) {
  using Cfg = ConfigTile128x128<2, true, true>;
  using ML = Sm80Mainloop<Cfg, __half, __half>;
  constexpr int BM = Cfg::kBlockM, BN = Cfg::kBlockN, BK = Cfg::kBlockK;
  int const m = BM + 77, n = BN + 45, k = 2 * BK + 13;
  Operand const a = make_operand<__half, true>(m, k, k + 11, true);  // ld * 2 bytes a multiple of 16
  Operand const b = make_operand<__half, true>(n, k, k + 19, false);
  int const k_tiles = (k + BK - 1) / BK;
  for (int tile = 0; tile < 2; ++tile)
    for (int kt = 0; kt < k_tiles; ++kt) {
      SCOPED_TRACE(testing::Message() << "CTA tile (" << tile << ", " << tile << "), k-tile " << kt);
      std::vector<unsigned char> seed_a(std::size_t(Cfg::kStageBytesA), 0xCD), ws_a = seed_a;
      std::vector<unsigned char> seed_b(std::size_t(Cfg::kStageBytesB), 0xCD), ws_b = seed_b;
      fill_stage<typename ML::LoaderA>(seed_a, a, tile * BM, m, k, kt, Cfg::kThreads, 16);
      fill_stage<WsCopyA<Cfg, __half>>(ws_a, a, tile * BM, m, k, kt, 32, 16);
      fill_stage<typename ML::LoaderB>(seed_b, b, tile * BN, n, k, kt, Cfg::kThreads, 16);
      fill_stage<WsCopyB<Cfg, __half>>(ws_b, b, tile * BN, n, k, kt, 32, 16);
      if (::testing::Test::HasFatalFailure()) return;
      EXPECT_TRUE(ws_a == seed_a) << "A's stage differs from the seed kernel's";
      EXPECT_TRUE(ws_b == seed_b) << "B's stage differs from the seed kernel's";
    }
}

// The spread mainloop issues units [ks*P/S, (ks+1)*P/S) at k-step ks: over
// the S k-steps of a k-tile the slices must cover each of the P units once.
template <class Loader, int kKSteps>
void check_slices() {
  std::vector<int> seen(std::size_t(Loader::kPerThread), 0);
  for (int ks = 0; ks < kKSteps; ++ks) {
    int const first = ks * Loader::kPerThread / kKSteps;
    int const count = (ks + 1) * Loader::kPerThread / kKSteps - first;
    ASSERT_GE(count, 0);
    for (int j = 0; j < count; ++j) ++seen[std::size_t(first + j)];
  }
  for (std::size_t i = 0; i < seen.size(); ++i) ASSERT_EQ(seen[i], 1) << "unit " << i;
}
TEST(Sm80Indexing, SpreadSlicesCoverEveryUnitOnce) {
  using C1 = ConfigT128x128Spread<2>;
  using C2 = ConfigT128x256Spread<2>;
  check_slices<Sm80Mainloop<C1, __half, float>::LoaderA, C1::kKSteps>();
  check_slices<Sm80Mainloop<C1, __half, float>::LoaderB, C1::kKSteps>();
  check_slices<Sm80Mainloop<C2, __half, float>::LoaderA, C2::kKSteps>();
  check_slices<Sm80Mainloop<C2, __half, float>::LoaderB, C2::kKSteps>();
  static_assert(Sm80Mainloop<C1, __half, float>::kSpread && !Sm80Mainloop<ConfigTile128x128<2, true, true>, __half, float>::kSpread,
                "test: the spread flag must reach the mainloop");
}

}  // namespace

#endif  // !defined(__CUDA_ARCH__)
