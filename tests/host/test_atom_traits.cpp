// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The atoms' (thread, value) layouts against the PTX ISA fragment tables,
// written out here independently as formulas of (lane, register, element):
//   lane = 4*group + tig
//   mma m16n8k*: A row = group + 8*i, col = E*tig + e + 4E*j; B row(k) = E*tig + e + 4E*j,
//                col(n) = group; C row = group + 8*i, col = 2*tig + e
//     (tf32 k8 orders its registers i fastest: a0 (g,t), a1 (g+8,t), a2 (g,t+4), a3 (g+8,t+4))
//   mma m8n8k4.f64: A (group, tig), B (k = tig, n = group), C (group, 2*tig + e)
//   ldmatrix: register j of lane l holds row l/4, cols 2(l%4)+e of matrix j
//     (.trans: row 2(l%4)+e, col l/4); lane l addresses row l%8 of matrix l/8
// plus the laws: every TV layout is a bijection onto its tile.

#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <tessera/atom.hpp>

namespace {

using namespace tessera;

template <class L>
std::string str(L const& l) {
  std::ostringstream os;
  os << l;
  return os.str();
}

// A (T, V) layout whose image is exactly [0, n), each index once.
template <class L>
void expect_bijection(L const& l, int n, char const* what) {
  std::set<int> seen;
  int const T = int(size<0>(l));
  int const V = int(size<1>(l));
  ASSERT_EQ(T * V, n) << what;
  for (int t = 0; t < T; ++t) {
    for (int v = 0; v < V; ++v) {
      int const idx = int(l(t, v));
      EXPECT_GE(idx, 0) << what;
      EXPECT_LT(idx, n) << what;
      EXPECT_TRUE(seen.insert(idx).second) << what << ": (" << t << "," << v << ") repeats " << idx;
    }
  }
}

template <class Op>
struct AtomCase {
  using Traits = MMA_Traits<Op>;
  static constexpr int M = decltype(size<0>(typename Traits::Shape_MNK{}))::value;
  static constexpr int N = decltype(size<1>(typename Traits::Shape_MNK{}))::value;
  static constexpr int K = decltype(size<2>(typename Traits::Shape_MNK{}))::value;
};

// PTX fragment of m16n8kK: value v of lane l -> (row, col) of A / B / C.
struct Frag {
  int r, c;
};
Frag ptx_a_16x8(int lane, int v, int elems_per_reg, int K, bool tf32) {
  int const g = lane / 4, t = lane % 4;
  if (tf32) {  // a0 (g,t) a1 (g+8,t) a2 (g,t+4) a3 (g+8,t+4)
    int const i = v % 2, j = v / 2;
    return {g + 8 * i, t + 4 * j};
  }
  int const e = v % elems_per_reg;
  int const i = (v / elems_per_reg) % 2;
  int const j = v / (2 * elems_per_reg);
  (void)K;
  return {g + 8 * i, elems_per_reg * t + e + 4 * elems_per_reg * j};
}
Frag ptx_b_16x8(int lane, int v, int elems_per_reg) {  // (k, n)
  int const g = lane / 4, t = lane % 4;
  int const e = v % elems_per_reg;
  int const j = v / elems_per_reg;
  return {elems_per_reg * t + e + 4 * elems_per_reg * j, g};
}
Frag ptx_c_16x8(int lane, int v) {
  int const g = lane / 4, t = lane % 4;
  return {g + 8 * (v / 2), 2 * t + v % 2};
}

template <class Op>
void check_16x8(int elems_per_reg, bool tf32) {
  using C = AtomCase<Op>;
  using Tr = typename C::Traits;
  typename Tr::ALayout la;
  typename Tr::BLayout lb;
  typename Tr::CLayout lc;
  expect_bijection(la, C::M * C::K, "A");
  expect_bijection(lb, C::N * C::K, "B");
  expect_bijection(lc, C::M * C::N, "C");
  for (int l = 0; l < 32; ++l) {
    for (int v = 0; v < int(size<1>(la)); ++v) {
      Frag f = ptx_a_16x8(l, v, elems_per_reg, C::K, tf32);
      EXPECT_EQ(int(la(l, v)), f.r + C::M * f.c) << "A lane " << l << " value " << v;
    }
    for (int v = 0; v < int(size<1>(lb)); ++v) {
      Frag f = ptx_b_16x8(l, v, elems_per_reg);
      EXPECT_EQ(int(lb(l, v)), f.c + C::N * f.r) << "B lane " << l << " value " << v;
    }
    for (int v = 0; v < 4; ++v) {
      Frag f = ptx_c_16x8(l, v);
      EXPECT_EQ(int(lc(l, v)), f.r + C::M * f.c) << "C lane " << l << " value " << v;
    }
  }
}

TEST(MmaTraits, F16_16x8x8) { check_16x8<SM80_16x8x8_F16F16F16F16_TN>(2, false); }
TEST(MmaTraits, F16_16x8x16) { check_16x8<SM80_16x8x16_F16F16F16F16_TN>(2, false); }
TEST(MmaTraits, F32F16_16x8x8) { check_16x8<SM80_16x8x8_F32F16F16F32_TN>(2, false); }
TEST(MmaTraits, F32F16_16x8x16) { check_16x8<SM80_16x8x16_F32F16F16F32_TN>(2, false); }
TEST(MmaTraits, BF16_16x8x8) { check_16x8<SM80_16x8x8_F32BF16BF16F32_TN>(2, false); }
TEST(MmaTraits, BF16_16x8x16) { check_16x8<SM80_16x8x16_F32BF16BF16F32_TN>(2, false); }
TEST(MmaTraits, TF32_16x8x4) { check_16x8<SM80_16x8x4_F32TF32TF32F32_TN>(1, true); }
TEST(MmaTraits, TF32_16x8x8) { check_16x8<SM80_16x8x8_F32TF32TF32F32_TN>(1, true); }

TEST(MmaTraits, F64_8x8x4) {
  using Tr = MMA_Traits<SM80_8x8x4_F64F64F64F64_TN>;
  typename Tr::ALayout la;
  typename Tr::BLayout lb;
  typename Tr::CLayout lc;
  expect_bijection(la, 32, "A");
  expect_bijection(lb, 32, "B");
  expect_bijection(lc, 64, "C");
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(int(la(l, 0)), l / 4 + 8 * (l % 4));
    EXPECT_EQ(int(lb(l, 0)), l / 4 + 8 * (l % 4));
    for (int v = 0; v < 2; ++v) EXPECT_EQ(int(lc(l, v)), l / 4 + 8 * (2 * (l % 4) + v));
  }
}

// The printed forms, which partitioned layouts inherit (seed 000 shows the
// C and A value modes as (_2,_2) and the B one as _2 for 16x8x8).
TEST(MmaTraits, PrintedLayouts) {
  using T8 = MMA_Traits<SM80_16x8x8_F16F16F16F16_TN>;
  EXPECT_EQ(str(typename T8::ALayout{}), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
  EXPECT_EQ(str(typename T8::BLayout{}), "((_4,_8),_2):((_16,_1),_8)");
  EXPECT_EQ(str(typename T8::CLayout{}), "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))");
  using T16 = MMA_Traits<SM80_16x8x16_F32F16F16F32_TN>;
  EXPECT_EQ(str(typename T16::ALayout{}), "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))");
  EXPECT_EQ(str(typename T16::BLayout{}), "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))");
  using T4 = MMA_Traits<SM80_16x8x4_F32TF32TF32F32_TN>;
  EXPECT_EQ(str(typename T4::ALayout{}), "((_4,_8),_2):((_16,_1),_8)");
  EXPECT_EQ(str(typename T4::BLayout{}), "((_4,_8),_1):((_8,_1),_0)");
}

TEST(MmaTraits, UniversalFMA) {
  using Tr = MMA_Traits<UniversalFMA<float, float, float, float>>;
  EXPECT_EQ(int(size(typename Tr::ThrID{})), 1);
  expect_bijection(typename Tr::ALayout{}, 1, "A");
  expect_bijection(typename Tr::CLayout{}, 1, "C");
}

// ---- ldmatrix / stmatrix ----------------------------------------------------

// The 4-matrix image in 16-bit elements: matrix j, row r, col c at 64j + 8r + c.
template <class Op>
void check_ldsm_like(int matrices, bool trans, bool is_store) {
  using Atom = Copy_Atom<Op, half_t>;
  // Register side and address side, whichever is source or destination.
  auto regs = [] {
    if constexpr (requires { typename detail::sm90_stsm<1, false>; } && std::is_base_of_v<detail::sm90_stsm<Op::kNumMatrices, Op::kTransposed>, Op>)
      return typename Atom::ValLayoutSrc{};
    else
      return typename Atom::ValLayoutDst{};
  }();
  auto addrs = [] {
    if constexpr (std::is_base_of_v<detail::sm90_stsm<Op::kNumMatrices, Op::kTransposed>, Op>)
      return typename Atom::ValLayoutDst{};
    else
      return typename Atom::ValLayoutSrc{};
  }();
  (void)is_store;
  ASSERT_EQ(int(size<0>(regs)), 32);
  ASSERT_EQ(int(size<1>(regs)), 2 * matrices);
  expect_bijection(regs, 64 * matrices, "registers");
  for (int l = 0; l < 32; ++l) {
    for (int v = 0; v < 2 * matrices; ++v) {
      int const j = v / 2, e = v % 2;
      int const row = trans ? 2 * (l % 4) + e : l / 4;
      int const col = trans ? l / 4 : 2 * (l % 4) + e;
      EXPECT_EQ(int(regs(l, v)), 64 * j + 8 * row + col) << "lane " << l << " value " << v;
    }
    // Row addresses: 8 contiguous elements at row l%8 of matrix l/8 (lanes
    // past the last matrix repeat).
    int const m = (l / 8) % matrices;
    EXPECT_EQ(int(size<1>(addrs)), 8);
    for (int v = 0; v < 8; ++v) EXPECT_EQ(int(addrs(l, v)), 64 * m + 8 * (l % 8) + v) << "lane " << l;
  }
}

TEST(CopyTraits, LdsmN) {
  check_ldsm_like<SM75_U32x1_LDSM_N>(1, false, false);
  check_ldsm_like<SM75_U32x2_LDSM_N>(2, false, false);
  check_ldsm_like<SM75_U32x4_LDSM_N>(4, false, false);
}
TEST(CopyTraits, LdsmT) {
  check_ldsm_like<SM75_U16x2_LDSM_T>(1, true, false);
  check_ldsm_like<SM75_U16x4_LDSM_T>(2, true, false);
  check_ldsm_like<SM75_U16x8_LDSM_T>(4, true, false);
}
TEST(CopyTraits, StsmN) {
  check_ldsm_like<SM90_U32x1_STSM_N>(1, false, true);
  check_ldsm_like<SM90_U32x2_STSM_N>(2, false, true);
  check_ldsm_like<SM90_U32x4_STSM_N>(4, false, true);
}
TEST(CopyTraits, StsmT) {
  check_ldsm_like<SM90_U16x2_STSM_T>(1, true, true);
  check_ldsm_like<SM90_U16x4_STSM_T>(2, true, true);
  check_ldsm_like<SM90_U16x8_STSM_T>(4, true, true);
}

TEST(CopyTraits, ValueCounts) {
  EXPECT_EQ((Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>::NumValSrc), 8);
  EXPECT_EQ((Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, half_t>::NumValDst), 8);
  EXPECT_EQ((Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<std::uint64_t>, float>::NumValSrc), 2);
  EXPECT_EQ((Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<std::uint32_t>, float>::NumValSrc), 1);
  EXPECT_EQ((Copy_Atom<UniversalCopy<uint128_t>, half_t>::NumValSrc), 8);
  EXPECT_EQ((Copy_Atom<DefaultCopy, half_t>::NumValSrc), 1);
  EXPECT_EQ((Copy_Atom<AutoVectorizingCopy, float>::NumValDst), 1);
  EXPECT_EQ((Copy_Atom<SM75_U32x4_LDSM_N, half_t>::NumValDst), 8);
  EXPECT_EQ((Copy_Atom<SM75_U32x1_LDSM_N, half_t>::NumValDst), 2);
}

TEST(CopyTraits, ZfillPredicate) {
  Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, half_t> atom;
  EXPECT_TRUE(atom.pred);
  EXPECT_FALSE(atom.with(false).pred);
  EXPECT_TRUE(atom.with(false).with(true).pred);
}

}  // namespace
