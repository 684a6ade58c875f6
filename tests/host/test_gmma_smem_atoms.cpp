// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The GMMA shared-memory layout atoms (tessera/atom/gmma_smem_atoms.hpp):
// fixed answers, the laws the header states, and agreement with the
// canonical-form checks that the wgmma descriptors are built from
// (arch/sm90/gmma_layout.hpp; those checks are exercised against the
// hardware by HopperWgmma.DescriptorFromLayout and MnMajorDescriptorFromLayout).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <type_traits>

#include "host_test.hpp"
#include "tessera/arch/sm90/gmma_layout.hpp"
#include "tessera/atom/gmma_smem_atoms.hpp"

using namespace tessera;
using tessera::arch::GmmaSwizzle;
using tessera::test::str;

namespace {

TEST(GmmaSmemAtoms, FixedAnswers) {
  EXPECT_EQ(str(GMMA::Layout_K_INTER_Atom<std::uint16_t>{}), "(_8,_8):(_8,_1)");
  EXPECT_EQ(str(GMMA::Layout_K_SW32_Atom<std::uint16_t>{}), "Sw<1,3,3> o _0 o (_8,_16):(_16,_1)");
  EXPECT_EQ(str(GMMA::Layout_K_SW64_Atom<std::uint16_t>{}), "Sw<2,3,3> o _0 o (_8,_32):(_32,_1)");
  EXPECT_EQ(str(GMMA::Layout_K_SW128_Atom<std::uint16_t>{}), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(str(GMMA::Layout_K_SW128_Atom<std::uint8_t>{}), "Sw<3,4,3> o _0 o (_8,_128):(_128,_1)");
  EXPECT_EQ(str(GMMA::Layout_K_SW128_Atom<float>{}), "Sw<3,2,3> o _0 o (_8,_32):(_32,_1)");
  EXPECT_EQ(str(GMMA::Layout_K_INTER_Atom<float>{}), "(_8,_4):(_4,_1)");
  EXPECT_EQ(str(GMMA::Layout_MN_INTER_Atom<std::uint16_t>{}), "(_8,_8):(_1,_8)");
  EXPECT_EQ(str(GMMA::Layout_MN_SW128_Atom<std::uint16_t>{}), "Sw<3,3,3> o _0 o (_64,_8):(_1,_64)");
  EXPECT_EQ(str(GMMA::Layout_MN_SW32_Atom<std::uint16_t>{}), "Sw<1,3,3> o _0 o (_16,_8):(_1,_16)");
}

// size * E == 8 rows of W bytes, and the atom maps its coordinates onto
// exactly [0, size).
template <class Atom, int kElemBytes, int kRowBytes>
void check_bijection(const char* name) {
  SCOPED_TRACE(name);
  Atom const atom{};
  int const n = int(size(atom));
  EXPECT_EQ(n * kElemBytes, 8 * kRowBytes);
  std::set<int> image;
  for (int i = 0; i < n; ++i) image.insert(int(atom(i)));
  EXPECT_EQ(int(image.size()), n);
  EXPECT_EQ(*image.begin(), 0);
  EXPECT_EQ(*image.rbegin(), n - 1);
}

template <class T>
void check_all_bijections() {
  constexpr int E = int(sizeof(T));
  check_bijection<GMMA::Layout_K_INTER_Atom<T>, E, 16>("K INTER");
  check_bijection<GMMA::Layout_K_SW32_Atom<T>, E, 32>("K SW32");
  check_bijection<GMMA::Layout_K_SW64_Atom<T>, E, 64>("K SW64");
  check_bijection<GMMA::Layout_K_SW128_Atom<T>, E, 128>("K SW128");
  check_bijection<GMMA::Layout_MN_INTER_Atom<T>, E, 16>("MN INTER");
  check_bijection<GMMA::Layout_MN_SW32_Atom<T>, E, 32>("MN SW32");
  check_bijection<GMMA::Layout_MN_SW64_Atom<T>, E, 64>("MN SW64");
  check_bijection<GMMA::Layout_MN_SW128_Atom<T>, E, 128>("MN SW128");
}

TEST(GmmaSmemAtoms, EachAtomIsOneSwizzlePatternOfItsBytes) {
  check_all_bijections<std::uint8_t>();
  check_all_bijections<std::uint16_t>();
  check_all_bijections<float>();
}

// A K-major atom tiled down M/N (64 rows, one swizzle row of K) is the
// canonical tile its descriptor describes; read with another element size
// it is not.
template <class T, class Atom>
void check_k_major(GmmaSwizzle want) {
  constexpr int E = int(sizeof(T));
  auto const tile = tile_to_shape(Atom{}, make_shape(_64{}, Int<int(size<1>(Atom{}))>{}));
  SCOPED_TRACE(str(tile));
  EXPECT_EQ(arch::gmma_swizzle_of<E>(tile), want);
  EXPECT_TRUE(arch::is_gmma_k_major_canonical<E>(tile, want));
  constexpr int other = E == 2 ? 4 : 2;
  EXPECT_FALSE(arch::is_gmma_k_major_canonical<other>(tile, arch::gmma_swizzle_of<other>(tile)));
}

TEST(GmmaSmemAtoms, KMajorTilesAreCanonical) {
  check_k_major<std::uint16_t, GMMA::Layout_K_SW32_Atom<std::uint16_t>>(GmmaSwizzle::b32);
  check_k_major<std::uint16_t, GMMA::Layout_K_SW64_Atom<std::uint16_t>>(GmmaSwizzle::b64);
  check_k_major<std::uint16_t, GMMA::Layout_K_SW128_Atom<std::uint16_t>>(GmmaSwizzle::b128);
  check_k_major<std::uint8_t, GMMA::Layout_K_SW128_Atom<std::uint8_t>>(GmmaSwizzle::b128);
  check_k_major<std::uint8_t, GMMA::Layout_K_SW32_Atom<std::uint8_t>>(GmmaSwizzle::b32);
  check_k_major<float, GMMA::Layout_K_SW128_Atom<float>>(GmmaSwizzle::b128);
  check_k_major<float, GMMA::Layout_K_SW64_Atom<float>>(GmmaSwizzle::b64);
  // The interleaved atom has no swizzle: the swizzled-form check refuses it.
  EXPECT_EQ(arch::gmma_swizzle_of<2>(GMMA::Layout_K_INTER_Atom<std::uint16_t>{}), GmmaSwizzle::interleave);
}

// A 16-bit MN-major atom tiled along K first (K rows of one atom stay W
// bytes apart), then M/N (atoms K * W bytes apart) is canonical. Tiled M/N
// first, the second group of 8 K rows lands after the other atoms, which
// the hardware's layout does not allow.
template <class Atom>
void check_mn_major(GmmaSwizzle want) {
  constexpr int A = int(size<0>(Atom{}));
  auto const k_first = tile_to_shape(Atom{}, make_shape(Int<2 * A>{}, _32{}), Step<_2, _1>{});
  SCOPED_TRACE(str(k_first));
  EXPECT_EQ(arch::gmma_swizzle_of<2>(k_first), want);
  std::uint32_t atom_bytes = 0;
  EXPECT_TRUE(arch::is_gmma_mn_major_canonical<2>(k_first, want, &atom_bytes));
  EXPECT_EQ(atom_bytes, 32u * 2 * A);  // K rows of W = 2A bytes
  auto const mn_first = tile_to_shape(Atom{}, make_shape(Int<2 * A>{}, _32{}));
  EXPECT_FALSE(arch::is_gmma_mn_major_canonical<2>(mn_first, want));
}

TEST(GmmaSmemAtoms, MnMajorTilesAreCanonicalWhenTiledAlongKFirst) {
  check_mn_major<GMMA::Layout_MN_SW32_Atom<std::uint16_t>>(GmmaSwizzle::b32);
  check_mn_major<GMMA::Layout_MN_SW64_Atom<std::uint16_t>>(GmmaSwizzle::b64);
  check_mn_major<GMMA::Layout_MN_SW128_Atom<std::uint16_t>>(GmmaSwizzle::b128);
}

// The seed-000-style spelling of the 16-bit 128B atom by hand is the same
// function as the named one.
TEST(GmmaSmemAtoms, HandSpelledAtomAgrees) {
  auto const hand = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_8{}, _64{}), make_stride(_64{}, _1{})));
  GMMA::Layout_K_SW128_Atom<std::uint16_t> const named{};
  for (int i = 0; i < 512; ++i) ASSERT_EQ(int(hand(i)), int(named(i))) << i;
}

}  // namespace

namespace {

template <class A, class B>
constexpr bool same_v = std::is_same_v<A, B>;

TEST(GmmaSmemAtoms, SelectorPicksTheWidestAtomThatDividesTheTile) {
  using H = std::uint16_t;
  using GMMA::Major;
  static_assert(same_v<decltype(GMMA::ss_smem_selector<Major::K, H, 128, 64>()), GMMA::Layout_K_SW128_Atom<H>>);
  static_assert(same_v<decltype(GMMA::ss_smem_selector<Major::K, H, 128, 192>()), GMMA::Layout_K_SW128_Atom<H>>);
  static_assert(same_v<decltype(GMMA::ss_smem_selector<Major::K, H, 64, 32>()), GMMA::Layout_K_SW64_Atom<H>>);
  static_assert(same_v<decltype(GMMA::ss_smem_selector<Major::K, H, 64, 48>()), GMMA::Layout_K_SW32_Atom<H>>);
  static_assert(same_v<decltype(GMMA::ss_smem_selector<Major::K, H, 8, 8>()), GMMA::Layout_K_INTER_Atom<H>>);
  static_assert(same_v<decltype(GMMA::ss_smem_selector<Major::K, float, 64, 32>()), GMMA::Layout_K_SW128_Atom<float>>);
  static_assert(same_v<decltype(GMMA::ss_smem_selector<Major::K, std::uint8_t, 64, 64>()),
                       GMMA::Layout_K_SW64_Atom<std::uint8_t>>);
  static_assert(same_v<decltype(GMMA::ss_smem_selector<Major::MN, H, 256, 64>()), GMMA::Layout_MN_SW128_Atom<H>>);
  static_assert(same_v<decltype(GMMA::ss_smem_selector<Major::MN, H, 16, 64>()), GMMA::Layout_MN_SW32_Atom<H>>);
  // The chosen atom tiles the operand tile into the canonical form.
  auto const k_tile = tile_to_shape(GMMA::ss_smem_selector<Major::K, H, 128, 64>(), make_shape(_128{}, _64{}));
  EXPECT_TRUE(arch::is_gmma_k_major_canonical<2>(k_tile, GmmaSwizzle::b128)) << str(k_tile);
  auto const mn_tile =
      tile_to_shape(GMMA::ss_smem_selector<Major::MN, H, 128, 64>(), make_shape(_128{}, _64{}), Step<_2, _1>{});
  EXPECT_TRUE(arch::is_gmma_mn_major_canonical<2>(mn_tile, GmmaSwizzle::b128)) << str(mn_tile);
}

}  // namespace
