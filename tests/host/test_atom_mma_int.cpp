// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The integer mma.sync atoms (s8/u8 operands, s32 accumulators) and their
// Turing names, against the PTX ISA fragment tables written out here as the
// ISA states them, case by case (not through the E = 32/bits formula the
// library uses):
//
//   lane = 4*groupID + threadID_in_group (g, t below); i = element index
//   m8n8k16   A: row g,                              col 4t + i            (i < 4)
//             B: row 4t + i,                         col g                 (i < 4)
//             C: row g,                              col 2t + i            (i < 2)
//   m16n8k16  A: row g for i < 4, g + 8 otherwise,   col 4t + (i & 3)      (i < 8)
//             B: row 4t + i,                         col g                 (i < 4)
//   m16n8k32  A: row g for i < 4 or 8 <= i < 12, else g + 8;
//                col 4t + (i & 3), + 16 for i >= 8                         (i < 16)
//             B: row 4t + (i & 3), + 16 for i >= 4,  col g                 (i < 8)
//   m16n8k*   C: row g for i < 2, g + 8 otherwise,   col 2t + (i & 1)      (i < 4)
//
// Element i of a fragment sits in byte i % 4 of register i / 4 ("elements
// low to high"), which MMA_Atom::call's register packing must reproduce.

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

namespace {

using namespace tessera;

template <class T>
std::string str(T const& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

struct RowCol {
  int row, col;
};

RowCol ptx_a(int M, int K, int lane, int i) {
  int const g = lane / 4, t = lane % 4;
  if (M == 8) return {g, 4 * t + i};
  if (K == 16) return {i < 4 ? g : g + 8, 4 * t + (i & 0x3)};
  bool const upper = i < 4 || (8 <= i && i < 12);
  return {upper ? g : g + 8, 4 * t + (i & 0x3) + (i >= 8 ? 16 : 0)};
}
RowCol ptx_b(int K, int lane, int i) {  // (row = k, col = n)
  int const g = lane / 4, t = lane % 4;
  if (K == 16) return {4 * t + i, g};
  return {4 * t + (i & 0x3) + (i >= 4 ? 16 : 0), g};
}
RowCol ptx_c(int M, int lane, int i) {
  int const g = lane / 4, t = lane % 4;
  if (M == 8) return {g, 2 * t + i};
  return {i < 2 ? g : g + 8, 2 * t + (i & 0x1)};
}

template <class Op, class TD, class TA, class TB, class TC, int M, int N, int K>
void check_int_atom() {
  using Tr = MMA_Traits<Op>;
  static_assert(std::is_same_v<typename Tr::ValTypeD, TD> && std::is_same_v<typename Tr::ValTypeA, TA> &&
                std::is_same_v<typename Tr::ValTypeB, TB> && std::is_same_v<typename Tr::ValTypeC, TC>);
  static_assert(std::is_same_v<typename Tr::Shape_MNK, Shape<Int<M>, Int<N>, Int<K>>>);
  EXPECT_EQ(int(size(typename Tr::ThrID{})), 32);

  // Registers: 4 operand bytes per uint32_t, one s32 per uint32_t.
  EXPECT_EQ(int(std::extent_v<typename Op::ARegisters>), M * K / 32 / 4);
  EXPECT_EQ(int(std::extent_v<typename Op::BRegisters>), N * K / 32 / 4);
  EXPECT_EQ(int(std::extent_v<typename Op::CRegisters>), M * N / 32);
  EXPECT_EQ(int(std::extent_v<typename Op::DRegisters>), M * N / 32);
  static_assert(std::is_same_v<std::remove_extent_t<typename Op::ARegisters>, std::uint32_t>);
  static_assert(std::is_same_v<std::remove_extent_t<typename Op::DRegisters>, std::uint32_t>);

  typename Tr::ALayout la;
  typename Tr::BLayout lb;
  typename Tr::CLayout lc;
  ASSERT_EQ(int(size<0>(la)), 32);
  ASSERT_EQ(int(size<1>(la)), M * K / 32);
  ASSERT_EQ(int(size<1>(lb)), N * K / 32);
  ASSERT_EQ(int(size<1>(lc)), M * N / 32);

  // Every (lane, value) where the table puts it; together each operand's
  // entries are the whole tile, each element once.
  std::set<int> seen_a, seen_b, seen_c;
  for (int lane = 0; lane < 32; ++lane) {
    for (int v = 0; v < M * K / 32; ++v) {
      RowCol const rc = ptx_a(M, K, lane, v);
      int const idx = rc.row + M * rc.col;  // (M,K) column-major
      EXPECT_EQ(int(la(lane, v)), idx) << "A lane " << lane << " a" << v;
      seen_a.insert(idx);
    }
    for (int v = 0; v < N * K / 32; ++v) {
      RowCol const rc = ptx_b(K, lane, v);
      int const idx = rc.col + N * rc.row;  // (N,K) column-major
      EXPECT_EQ(int(lb(lane, v)), idx) << "B lane " << lane << " b" << v;
      seen_b.insert(idx);
    }
    for (int v = 0; v < M * N / 32; ++v) {
      RowCol const rc = ptx_c(M, lane, v);
      int const idx = rc.row + M * rc.col;  // (M,N) column-major
      EXPECT_EQ(int(lc(lane, v)), idx) << "C lane " << lane << " c" << v;
      seen_c.insert(idx);
    }
  }
  EXPECT_EQ(int(seen_a.size()), M * K);
  EXPECT_EQ(int(seen_b.size()), N * K);
  EXPECT_EQ(int(seen_c.size()), M * N);
  EXPECT_GE(*seen_a.begin(), 0);
  EXPECT_LT(*seen_a.rbegin(), M * K);
  EXPECT_LT(*seen_b.rbegin(), N * K);
  EXPECT_LT(*seen_c.rbegin(), M * N);
}

using std::int32_t;
using std::int8_t;
using std::uint8_t;

TEST(MmaTraitsInt, M8N8K16) {
  check_int_atom<SM80_8x8x16_S32S8S8S32_TN, int32_t, int8_t, int8_t, int32_t, 8, 8, 16>();
  check_int_atom<SM80_8x8x16_S32S8U8S32_TN, int32_t, int8_t, uint8_t, int32_t, 8, 8, 16>();
  check_int_atom<SM80_8x8x16_S32U8S8S32_TN, int32_t, uint8_t, int8_t, int32_t, 8, 8, 16>();
  check_int_atom<SM80_8x8x16_S32U8U8S32_TN, int32_t, uint8_t, uint8_t, int32_t, 8, 8, 16>();
}
TEST(MmaTraitsInt, M16N8K16) {
  check_int_atom<SM80_16x8x16_S32S8S8S32_TN, int32_t, int8_t, int8_t, int32_t, 16, 8, 16>();
  check_int_atom<SM80_16x8x16_S32S8U8S32_TN, int32_t, int8_t, uint8_t, int32_t, 16, 8, 16>();
  check_int_atom<SM80_16x8x16_S32U8S8S32_TN, int32_t, uint8_t, int8_t, int32_t, 16, 8, 16>();
  check_int_atom<SM80_16x8x16_S32U8U8S32_TN, int32_t, uint8_t, uint8_t, int32_t, 16, 8, 16>();
}
TEST(MmaTraitsInt, M16N8K32) {
  check_int_atom<SM80_16x8x32_S32S8S8S32_TN, int32_t, int8_t, int8_t, int32_t, 16, 8, 32>();
  check_int_atom<SM80_16x8x32_S32S8U8S32_TN, int32_t, int8_t, uint8_t, int32_t, 16, 8, 32>();
  check_int_atom<SM80_16x8x32_S32U8S8S32_TN, int32_t, uint8_t, int8_t, int32_t, 16, 8, 32>();
  check_int_atom<SM80_16x8x32_S32U8U8S32_TN, int32_t, uint8_t, uint8_t, int32_t, 16, 8, 32>();
}

// The Turing names are the same instructions as the SM80 ones.
TEST(MmaTraitsInt, Sm75Names) {
  static_assert(std::is_same_v<SM75_8x8x16_S32S8S8S32_TN, SM80_8x8x16_S32S8S8S32_TN>);
  static_assert(std::is_same_v<SM75_16x8x8_F32F16F16F32_TN, SM80_16x8x8_F32F16F16F32_TN>);
  check_int_atom<SM75_8x8x16_S32S8S8S32_TN, int32_t, int8_t, int8_t, int32_t, 8, 8, 16>();
  using T = MMA_Traits<SM75_16x8x8_F32F16F16F32_TN>;
  static_assert(std::is_same_v<T::ValTypeA, half_t> && std::is_same_v<T::ValTypeD, float>);
  EXPECT_EQ(str(T::ALayout{}), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
}

// CuTe's notation for the layouts; size-1 value modes are dropped.
TEST(MmaTraitsInt, PrintedLayouts) {
  using T8 = MMA_Traits<SM80_8x8x16_S32S8S8S32_TN>;
  EXPECT_EQ(str(T8::ALayout{}), "((_4,_8),_4):((_32,_1),_8)");
  EXPECT_EQ(str(T8::BLayout{}), "((_4,_8),_4):((_32,_1),_8)");
  EXPECT_EQ(str(T8::CLayout{}), "((_4,_8),_2):((_16,_1),_8)");
  using T16 = MMA_Traits<SM80_16x8x16_S32U8S8S32_TN>;
  EXPECT_EQ(str(T16::ALayout{}), "((_4,_8),(_4,_2)):((_64,_1),(_16,_8))");
  EXPECT_EQ(str(T16::BLayout{}), "((_4,_8),_4):((_32,_1),_8)");
  EXPECT_EQ(str(T16::CLayout{}), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
  using T32 = MMA_Traits<SM80_16x8x32_S32S8U8S32_TN>;
  EXPECT_EQ(str(T32::ALayout{}), "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))");
  EXPECT_EQ(str(T32::BLayout{}), "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))");
  EXPECT_EQ(str(T32::CLayout{}), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");

  EXPECT_EQ(str(MMA_Atom<SM80_16x8x32_S32S8S8S32_TN>{}),
            "MMA_Atom\n"
            "  ThrID:      _32:_1\n"
            "  Shape_MNK:  (_16,_8,_32)\n"
            "  LayoutA_TV: ((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))\n"
            "  LayoutB_TV: ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))\n"
            "  LayoutC_TV: ((_4,_8),(_2,_2)):((_32,_1),(_16,_8))\n");
}

// MMA_Atom::call's packing: 16 int8 values into 4 registers, element i in
// byte i % 4 of register i / 4; s32 values bit for bit; and back.
TEST(MmaTraitsInt, RegisterPacking) {
  auto a = make_tensor<int8_t>(Shape<_16>{});
  for (int i = 0; i < 16; ++i) a(i) = int8_t(i % 2 == 0 ? -128 + 17 * i : 127 - 13 * i);
  std::uint32_t ra[4];
  detail::pack_registers<decltype(ra), int8_t>(ra, a);
  for (int i = 0; i < 16; ++i)
    EXPECT_EQ((ra[i / 4] >> (8 * (i % 4))) & 0xffu, std::uint32_t(std::uint8_t(a(i)))) << "a" << i;

  auto b = make_tensor<uint8_t>(Shape<_8>{});
  for (int i = 0; i < 8; ++i) b(i) = uint8_t(255 - 31 * i);
  std::uint32_t rb[2];
  detail::pack_registers<decltype(rb), uint8_t>(rb, b);
  for (int i = 0; i < 8; ++i) EXPECT_EQ((rb[i / 4] >> (8 * (i % 4))) & 0xffu, std::uint32_t(b(i))) << "b" << i;

  auto c = make_tensor<int32_t>(Shape<_4>{});
  int32_t const cv[4] = {INT32_MIN, -1, 0x12345678, INT32_MAX};
  for (int i = 0; i < 4; ++i) c(i) = cv[i];
  std::uint32_t rc[4];
  detail::pack_registers<decltype(rc), int32_t>(rc, c);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(rc[i], std::uint32_t(cv[i])) << "c" << i;
  auto d = make_tensor<int32_t>(Shape<_4>{});
  detail::unpack_registers<decltype(rc), int32_t>(rc, d);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(d(i), cv[i]) << "d" << i;
}

// A 2x2-warp TiledMMA of the 16x8x32 atom: a 32x16x32 tile whose C TV layout
// covers the tile once, A twice (the two N warps) and B twice (the two M
// warps), and whose fragments are int8/int32 tensors of the atom's shapes.
TEST(MmaTraitsInt, TiledMma) {
  auto mma = make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_2, _2>>{});
  EXPECT_EQ(int(size(mma)), 128);
  EXPECT_EQ(str(tile_shape(mma)), "(_32,_16,_32)");

  auto count = [](auto const& tv, int n) {
    std::vector<int> hits(n, 0);
    for (int t = 0; t < int(size<0>(tv)); ++t)
      for (int v = 0; v < int(size<1>(tv)); ++v) {
        int const i = int(tv(t, v));
        if (i < 0 || i >= n) return std::vector<int>{};
        ++hits[i];
      }
    return hits;
  };
  EXPECT_EQ(count(mma.get_layoutC_TV(), 32 * 16), std::vector<int>(32 * 16, 1));
  EXPECT_EQ(count(mma.get_layoutA_TV(), 32 * 32), std::vector<int>(32 * 32, 2));
  EXPECT_EQ(count(mma.get_layoutB_TV(), 16 * 32), std::vector<int>(16 * 32, 2));

  std::vector<int8_t> bufA(64 * 64);
  std::vector<int32_t> bufC(64 * 32);
  Tensor gA = make_tensor(make_gmem_ptr(bufA.data()), make_shape(_64{}, _64{}), make_stride(_64{}, _1{}));  // (M,K)
  Tensor gC = make_tensor(make_gmem_ptr(bufC.data()), make_shape(_64{}, _32{}));                           // (M,N)
  auto thr = mma.get_slice(37);
  Tensor tCrA = thr.partition_fragment_A(gA);  // (MMA,MMA_M,MMA_K)
  Tensor tCrC = thr.partition_fragment_C(gC);  // (MMA,MMA_M,MMA_N)
  static_assert(std::is_same_v<typename decltype(tCrA)::value_type, int8_t>);
  static_assert(std::is_same_v<typename decltype(tCrC)::value_type, int32_t>);
  EXPECT_EQ(str(shape(tCrA)), "((_4,_2,_2),_2,_2)");
  EXPECT_EQ(str(shape(tCrC)), "((_2,_2),_2,_2)");

  std::ostringstream os;
  os << mma;
  EXPECT_NE(os.str().find("Tile (M,N,K):   (_32,_16,_32)"), std::string::npos) << os.str();
  EXPECT_NE(os.str().find("LayoutB_TV: ((_4,_8),(_4,_2)):((_32,_1),(_8,_128))"), std::string::npos) << os.str();
}

}  // namespace
