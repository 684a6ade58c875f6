// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// local_tile / local_partition / inner_partition / outer_partition and the
// seed 000 problem (m = n = 5120, k = 4096, CTA tile 128x128x64, 3 stages,
// Swizzle<3,3,3> smem atom): the printed gA, gB, gC, mA, mC and sA.

#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tessera/tensor.hpp"
#include "host_test.hpp"

using namespace tessera;

namespace {

using tessera::test::str;

using half_bits = std::uint16_t;  // a 16-bit element: prints as [16b]

half_bits* fake(std::uintptr_t a) { return reinterpret_cast<half_bits*>(a); }

}  // namespace

// Seed 000 §3.2 / §3.5: the global tensors and their CTA tiles for block (0,0).
TEST(TensorSeed000, GlobalTiles) {
  int const M = 5120, N = 5120, K = 4096;
  int const ldA = K, ldB = K, ldC = M;
  auto prob_shape = make_shape(M, N, K);                     // (M, N, K)
  auto dA = make_stride(ldA, Int<1>{});                      // (dM, dK)
  auto dB = make_stride(ldB, Int<1>{});                      // (dN, dK)
  auto dC = make_stride(Int<1>{}, ldC);                      // (dM, dN)
  auto cta_tiler = make_shape(Int<128>{}, Int<128>{}, Int<64>{});  // (BLK_M, BLK_N, BLK_K)

  Tensor mA = make_tensor(make_gmem_ptr(fake(0x505600000)), select<0, 2>(prob_shape), dA);  // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(fake(0x507e00000)), select<1, 2>(prob_shape), dB);  // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(fake(0x50a600000)), select<0, 1>(prob_shape), dC);  // (M,N)

  auto cta_coord = make_coord(0, 0, _);                                    // (m,n,k)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});     // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});     // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});     // (BLK_M,BLK_N)

  EXPECT_EQ(str(mA), "gmem_ptr[16b](0x505600000) o (5120,4096):(4096,_1)");
  EXPECT_EQ(str(mC), "gmem_ptr[16b](0x50a600000) o (5120,5120):(_1,5120)");  // seed: mC
  EXPECT_EQ(str(gA), "gmem_ptr[16b](0x505600000) o (_128,_64,64):(4096,_1,_64)");
  EXPECT_EQ(str(gB), "gmem_ptr[16b](0x507e00000) o (_128,_64,64):(4096,_1,_64)");
  EXPECT_EQ(str(gC), "gmem_ptr[16b](0x50a600000) o (_128,_128):(_1,5120)");  // seed: gC
}

// Another block: the tile's origin moves, its layout does not.
TEST(TensorSeed000, TileOriginOfOtherBlocks) {
  int const M = 5120, K = 4096;
  std::uintptr_t const base = 0x100000000;
  Tensor mA = make_tensor(make_gmem_ptr(fake(base)), make_shape(M, K), make_stride(K, Int<1>{}));
  auto cta_tiler = make_shape(Int<128>{}, Int<128>{}, Int<64>{});
  for (int bx : {0, 1, 7, 39}) {
    for (int by : {0, 3}) {
      Tensor gA = local_tile(mA, cta_tiler, make_coord(bx, by, _), Step<_1, X, _1>{});
      EXPECT_EQ(str(gA.layout()), "(_128,_64,64):(4096,_1,_64)");
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(gA.data().get()), base + 2u * std::uintptr_t(bx) * 128 * K);
      // Law: gA(i, j, k) == mA(bx*128 + i, k*64 + j).
      for (int i : {0, 5, 127})
        for (int j : {0, 63})
          for (int k : {0, 1, 63}) ASSERT_EQ(&gA(i, j, k), &mA(bx * 128 + i, k * 64 + j));
    }
  }
}

// Seed 000 §2.1.2: sA = tile_to_shape(Swizzle<3,3,3> o (8,(8,8)):(8,(1,64)), (128,64,3)).
TEST(TensorSeed000, SwizzledSharedA) {
  auto swizzle_atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  auto sA_layout = tile_to_shape(swizzle_atom, make_shape(Int<128>{}, Int<64>{}, Int<3>{}));
  static_assert(decltype(cosize(sA_layout))::value == 128 * 64 * 3);

  // The tensor keeps the swizzled layout over a plain smem pointer (CuTe's form).
  alignas(1024) static half_bits smem[128 * 64 * 3];
  Tensor sA = make_tensor(make_smem_ptr(smem), sA_layout);  // (BLK_M,BLK_K,PIPE)
  static_assert(is_smem_v<decltype(sA.data())>);
  EXPECT_EQ(str(sA.layout()), "Sw<3,3,3> o _0 o ((_8,_16),(_8,_8),(_1,_3)):((_8,_512),(_1,_64),(_0,_8192))");
  std::string const printed = str(sA);
  EXPECT_EQ(printed.rfind("smem_ptr[16b](", 0), 0u) << printed;
  EXPECT_NE(printed.find(") o Sw<3,3,3> o _0 o ((_8,_16),(_8,_8),(_1,_3)):((_8,_512),(_1,_64),(_0,_8192))"),
            std::string::npos)
      << printed;
  // The explicit other form: the swizzle in the pointer, the plain layout in the tensor.
  Tensor sP = as_position_independent_swizzle_tensor(sA);
  EXPECT_EQ(str(sP.layout()), "((_8,_16),(_8,_8),(_1,_3)):((_8,_512),(_1,_64),(_0,_8192))");
  std::string const printed_p = str(sP);
  EXPECT_EQ(printed_p.rfind("Sw<3,3,3>_smem_ptr[16b](", 0), 0u) << printed_p;
  for (int i = 0; i < int(size(sP)); ++i) ASSERT_EQ(&sP(i), &smem[sA_layout(i)]) << "i=" << i;

  // Law: &sA(c) == &smem[sA_layout(c)] (Swizzle o offset o layout) for every c.
  for (int i = 0; i < int(size(sA)); ++i) {
    ASSERT_EQ(&sA(i), &smem[sA_layout(i)]) << "i=" << i;
  }
  // Slices keep the swizzled pointer and index through it the same way.
  for (int p = 0; p < 3; ++p) {
    auto sAp = sA(_, _, p);  // (BLK_M,BLK_K)
    for (int m = 0; m < 128; m += 7)
      for (int k = 0; k < 64; ++k) ASSERT_EQ(&sAp(m, k), &smem[sA_layout(make_coord(m, k, p))]);
  }
  // The swizzle really permutes: in the 8x64 atom, offset 8*m + k%8 + 64*(k/8) has
  // its 16-byte chunk index m xored with k/8; (1,8) lands on 64, not on 72.
  EXPECT_EQ(&sA(1, 8, 0), &smem[64]);
  EXPECT_EQ(&sA(0, 8, 0), &smem[72]);
  EXPECT_EQ(&sA(3, 17, 0), &smem[8 * (3 ^ 2) + 1 + 128]);
}

// local_partition with a thread layout, checked by the law and by printed layouts.
TEST(TensorPartition, LocalPartitionThreads) {
  std::vector<float> buf(128 * 8);
  auto sA = make_tensor(buf.data(), Layout<Shape<_128, _8>>{});  // (BLK_M,BLK_K)
  auto tA = Layout<Shape<_32, _4>>{};                               // (THR_M,THR_K)
  for (int tid = 0; tid < 128; ++tid) {
    Tensor tAsA = local_partition(sA, tA, tid);  // (THR_M',THR_K')
    ASSERT_EQ(str(tAsA.layout()), "(_4,_2):(_32,_512)");
    int const tm = tid % 32, tk = tid / 32;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 2; ++j) ASSERT_EQ(&tAsA(i, j), &sA(tm + 32 * i, tk + 4 * j));
  }
  // A row-major thread layout (seed 000's copyA threads: (16,8):(8,1)).
  auto gA = make_tensor(buf.data(), make_shape(Int<128>{}, Int<8>{}), make_stride(8, Int<1>{}));
  auto tT = Layout<Shape<_16, _8>, Stride<_8, _1>>{};
  for (int tid = 0; tid < 128; ++tid) {
    Tensor t = local_partition(gA, tT, tid);  // (8,1)
    int const tm = tid / 8, tk = tid % 8;
    for (int i = 0; i < 8; ++i) ASSERT_EQ(&t(i, 0), &gA(tm + 16 * i, tk));
  }
}

// Step projections: sgemm-style tCsA / tCsB / tCgC from one 16x16 thread layout.
TEST(TensorPartition, LocalPartitionStep) {
  std::vector<float> a(128 * 8), b(128 * 8), c(128 * 128);
  auto sA = make_tensor(a.data(), Layout<Shape<_128, _8>>{});
  auto sB = make_tensor(b.data(), Layout<Shape<_128, _8>>{});
  auto gC = make_tensor(c.data(), make_shape(Int<128>{}, Int<128>{}), make_stride(Int<1>{}, 128));
  auto tC = Layout<Shape<_16, _16>>{};
  for (int tid : {0, 1, 17, 255}) {
    Tensor tCsA = local_partition(sA, tC, tid, Step<_1, X>{});   // (THR_M,BLK_K)
    Tensor tCsB = local_partition(sB, tC, tid, Step<X, _1>{});   // (THR_N,BLK_K)
    Tensor tCgC = local_partition(gC, tC, tid, Step<_1, _1>{});  // (THR_M,THR_N)
    EXPECT_EQ(str(tCsA.layout()), "(_8,_8):(_16,_128)");
    EXPECT_EQ(str(tCsB.layout()), "(_8,_8):(_16,_128)");
    EXPECT_EQ(str(tCgC.layout()), "(_8,_8):(_16,2048)");
    int const tm = tid % 16, tn = tid / 16;
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < 8; ++k) {
        ASSERT_EQ(&tCsA(i, k), &sA(tm + 16 * i, k));
        ASSERT_EQ(&tCsB(i, k), &sB(tn + 16 * i, k));
      }
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) ASSERT_EQ(&tCgC(i, j), &gC(tm + 16 * i, tn + 16 * j));
  }
}

TEST(TensorPartition, InnerOuterAreComplementary) {
  std::vector<int> buf(24 * 20);
  auto t = make_tensor(buf.data(), make_shape(24, 20));
  auto tiler = make_shape(Int<4>{}, Int<5>{});
  // inner: the tile at rest-coordinate (2,3); outer: position (1,4) of every tile.
  auto in = inner_partition(t, tiler, make_coord(2, 3));
  auto out = outer_partition(t, tiler, make_coord(1, 4));
  EXPECT_EQ(str(in.layout()), "(_4,_5):(_1,24)");
  EXPECT_EQ(str(out.shape()), "(6,4)");
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 5; ++j) ASSERT_EQ(&in(i, j), &t(2 * 4 + i, 3 * 5 + j));
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j) ASSERT_EQ(&out(i, j), &t(i * 4 + 1, j * 5 + 4));
  // local_tile with a coordinate that keeps a rest mode.
  auto col = local_tile(t, tiler, make_coord(1, _));  // (4,5,4)
  EXPECT_EQ(str(col.shape()), "(_4,_5,4)");
  for (int j = 0; j < 4; ++j) ASSERT_EQ(&col(0, 0, j), &t(4, j * 5));
}

TEST(TensorPartition, DividesOnTensors) {
  std::vector<int> buf(64);
  auto t = make_tensor(buf.data(), Layout<Shape<_8, _8>>{});
  auto z = zipped_divide(t, make_shape(Int<2>{}, Int<4>{}));  // ((2,4),(4,2))
  EXPECT_EQ(str(z.layout()), "((_2,_4),(_4,_2)):((_1,_8),(_2,_32))");
  auto f = flat_divide(t, make_shape(Int<2>{}, Int<4>{}));  // (2,4,4,2)
  EXPECT_EQ(str(f.shape()), "(_2,_4,_4,_2)");
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 4; ++b)
      for (int c = 0; c < 4; ++c)
        for (int d = 0; d < 2; ++d) ASSERT_EQ(&f(a, b, c, d), &t(c * 2 + a, d * 4 + b));
}

// Identity tensors partition like the data and keep residue coordinates out of bounds.
TEST(TensorIdentity, PredicatesForResidueTiles) {
  int const M = 100, N = 37;
  auto cA = make_identity_tensor(make_shape(M, N));
  for (int m = 0; m < M; m += 9)
    for (int n = 0; n < N; n += 5) {
      auto c = cA(m, n);
      ASSERT_EQ(int(get<0>(c)), m);
      ASSERT_EQ(int(get<1>(c)), n);
    }
  // The last tile of a 32x16 tiling reaches past M and N; its coordinates must say so.
  auto tile = local_tile(cA, make_shape(Int<32>{}, Int<16>{}), make_coord(3, 2));  // rows 96..127, cols 32..47
  int inside = 0;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 16; ++j) {
      auto c = tile(i, j);
      ASSERT_EQ(int(get<0>(c)), 96 + i);
      ASSERT_EQ(int(get<1>(c)), 32 + j);
      inside += bool(elem_less(c, make_shape(M, N)));
    }
  EXPECT_EQ(inside, 4 * 5);
}

// Laws over a generated corpus of dynamic shapes, strides, tilers and thread layouts.
TEST(TensorPartition, RandomCorpusLaws) {
  std::mt19937 rng(777);
  std::vector<int> buf(1);
  int* p = buf.data();  // never dereferenced: the laws compare addresses
  for (int trial = 0; trial < 300; ++trial) {
    int const tm = 1 + int(rng() % 4), tn = 1 + int(rng() % 4);  // tile
    int const rm = 1 + int(rng() % 5), rn = 1 + int(rng() % 5);  // repeats
    int const M = tm * rm, N = tn * rn;
    int const dm = 1 + int(rng() % 3), dn = M * dm + int(rng() % 7);
    auto t = make_tensor(p, make_shape(M, N), make_stride(dm, dn));
    auto tiler = make_shape(tm, tn);
    int const bm = int(rng() % rm), bn = int(rng() % rn);
    // local_tile: tile (bm,bn) is the block of t at (bm*tm, bn*tn).
    auto tile = local_tile(t, tiler, make_coord(bm, bn));
    ASSERT_EQ(int(size(tile)), tm * tn);
    for (int i = 0; i < tm; ++i)
      for (int j = 0; j < tn; ++j) ASSERT_EQ(&tile(i, j), &t(bm * tm + i, bn * tn + j));
    // local_tile with a _ keeps the rest mode: (tm, tn, rn) for row bm.
    auto row = local_tile(t, tiler, make_coord(bm, _));
    for (int j = 0; j < tn; ++j)
      for (int k = 0; k < rn; ++k) ASSERT_EQ(&row(0, j, k), &t(bm * tm, k * tn + j));
    // local_partition with a column-major (tm,tn) thread layout: thread (a,b)
    // owns (a + tm*i, b + tn*j).
    auto thr = make_layout(make_shape(tm, tn));
    for (int tid = 0; tid < tm * tn; ++tid) {
      auto part = local_partition(t, thr, tid);
      int const a = tid % tm, b = tid / tm;
      ASSERT_EQ(int(size(part)), rm * rn);
      for (int i = 0; i < rm; ++i)
        for (int j = 0; j < rn; ++j) ASSERT_EQ(&part(i, j), &t(a + tm * i, b + tn * j));
    }
  }
}

// recast of a swizzled smem tensor: the swizzle is re-expressed in the wider
// unit, so word j of a K-row sits where its two halves sat.
TEST(TensorSeed000, RecastSwizzledShared) {
  auto swizzle_atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  auto sL = tile_to_shape(swizzle_atom, make_shape(Int<16>{}, Int<64>{}));
  alignas(1024) static half_bits smem[16 * 64];
  Tensor sA = make_tensor(make_smem_ptr(smem), sL);  // (16,64) halves
  Tensor sW = recast<std::uint32_t>(sA);             // (16,32) words
  std::string const printed = str(sW);
  EXPECT_EQ(printed.rfind("smem_ptr[32b](", 0), 0u) << printed;
  EXPECT_NE(printed.find(") o Sw<3,2,3> o _0 o "), std::string::npos) << printed;
  EXPECT_EQ(int(size(sW)), 16 * 32);
  for (int m = 0; m < 16; ++m)
    for (int k = 0; k < 32; ++k)
      ASSERT_EQ(static_cast<void const*>(&sW(m, k)), static_cast<void const*>(&sA(m, 2 * k))) << m << "," << k;
  // The same through the swizzle_ptr form.
  Tensor sWp = recast<std::uint32_t>(as_position_independent_swizzle_tensor(sA));
  std::string const printed_p = str(sWp);
  EXPECT_EQ(printed_p.rfind("Sw<3,2,3>_smem_ptr[32b](", 0), 0u) << printed_p;
  for (int m = 0; m < 16; ++m)
    for (int k = 0; k < 32; ++k)
      ASSERT_EQ(static_cast<void const*>(&sWp(m, k)), static_cast<void const*>(&sA(m, 2 * k))) << m << "," << k;
}

namespace {

// A slice of a swizzled tensor decays to a plain layout only when that is
// exact, and either way names the elements the swizzled layout names.
TEST(TensorSwizzle, SliceDecaysOnlyWhenExact) {
  using Sw = Swizzle<3, 3, 3>;
  auto atom_b = Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{};  // (m,k) -> offset
  alignas(1024) static std::uint16_t smem[8 * 64];
  auto s = make_tensor(make_smem_ptr(smem), composition(Sw{}, atom_b));
  // Row slices of the unsplit atom: the k-chunk leaf 8:64 crosses all three
  // yyy bits, so no plain layout exists; the slice stays composed.
  for (int m = 0; m < 8; ++m) {
    auto row = s(m, Underscore{});
    static_assert(is_composed_layout_v<decltype(row.layout())>, "an 8-wide leaf over the yyy bits cannot decay");
    for (int k = 0; k < 64; ++k) ASSERT_EQ(&row(k), &smem[Sw{}(atom_b(m, k))]) << m << "," << k;
  }
  // The same atom cut at the swizzle bits: a row slice is linear (one-bit
  // yyy leaves, disjoint images) and decays, with run-time strides.
  auto split = swizzle_split(Sw{}, atom_b);
  EXPECT_EQ(str(split), "((_2,_2,_2),(_8,(_2,_2,_2))):((_8,_16,_32),(_1,(_64,_128,_256)))");
  auto t = make_tensor(make_smem_ptr(smem), composition(Sw{}, split));
  for (int m = 0; m < 8; ++m) {
    auto row = t(m, Underscore{});
    static_assert(is_layout_v<decltype(row.layout())>, "one-bit leaves decay");
    for (int k = 0; k < 64; ++k) ASSERT_EQ(&row(k), &smem[Sw{}(atom_b(m, k))]) << m << "," << k;
  }
  // Same nesting as the plain slice atom_b(0, _); strides Sw(64), Sw(128), Sw(256) for row 0.
  EXPECT_EQ(str(t(0, Underscore{}).layout()), "((_8,(_2,_2,_2))):((_1,(72,144,288)))");
  // A column slice keeps the zzz leaves (m) with a k offset whose yyy bits
  // feed them: also one-bit leaves, also exact.
  for (int k = 0; k < 64; ++k) {
    auto col = t(Underscore{}, k);
    for (int m = 0; m < 8; ++m) ASSERT_EQ(&col(m), &smem[Sw{}(atom_b(m, k))]) << m << "," << k;
  }
}

}  // namespace
