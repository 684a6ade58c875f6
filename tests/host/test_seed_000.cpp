// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Seed 000 (CuTe Ampere TN HGEMM walkthrough), rebuilt on the host for thread 0
// of block (0,0): every partitioned layout it prints in sections 3.3, 3.5 and
// 3.6 must come out the same. Pointers are fake host addresses (never
// dereferenced), so only the pointer kind and the layout are compared.
//
// All twelve must come out exactly as the seed prints them (pointer kind and
// layout; the address is a fake host one). Swizzled shared memory is kept as
// CuTe keeps it, `smem_ptr o Sw<3,3,3> o _0 o L`; a thread's partition slice
// decays to a plain layout where that is exact (tensor/swizzle_layout.hpp):
// the k-block strides that cross the swizzle's bits become run-time values,
// (_2,_2):(144,288) == (Sw(128),Sw(256)) for thread 0. Besides the strings,
// the tests check element by element that the shared-memory partitions name
// the same addresses as the swizzled sA, for every thread.

#include <cstdint>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <tessera/atom.hpp>
#include <tessera/cute_compat.hpp>
#include <tessera/tensor.hpp>

#include "host_test.hpp"

namespace {

using namespace tessera;

struct Printed {
  std::string pointer;  // "gmem_ptr[16b]" -- the address dropped
  std::string layout;   // "((_8,_1),_8,_1,64):((_1,_0),65536,_0,_64)"
};

template <class T>
Printed printed(T const& tensor) {
  std::string const s = tessera::test::str(tensor);
  auto const paren = s.find('(');
  auto const o = s.find(" o ");
  EXPECT_NE(paren, std::string::npos) << s;
  EXPECT_NE(o, std::string::npos) << s;
  return Printed{s.substr(0, paren), s.substr(o + 3)};
}

// Fake device addresses, shaped like the seed's (aligned so the swizzled smem
// base satisfies make_tensor's 1 KiB alignment check).
half_t* const kA = reinterpret_cast<half_t*>(std::uintptr_t{0x505600000});
half_t* const kB = reinterpret_cast<half_t*>(std::uintptr_t{0x507e00000});
half_t* const kC = reinterpret_cast<half_t*>(std::uintptr_t{0x50a600000});
half_t* const kSmemA = reinterpret_cast<half_t*>(std::uintptr_t{0x7f531d000000});
half_t* const kSmemB = reinterpret_cast<half_t*>(std::uintptr_t{0x7f531d00c000});

// The seed's printed layouts as Tessera layouts (for the element checks).
inline auto seed_tAsA() {  // ((_8,_1),_8,_1,(_1,_3)):((_1,_0),_1024,_0,(_0,_8192))
  return make_layout(make_shape(make_shape(_8{}, _1{}), _8{}, _1{}, make_shape(_1{}, _3{})),
                     make_stride(make_stride(_1{}, _0{}), Int<1024>{}, _0{}, make_stride(_0{}, Int<8192>{})));
}
inline auto seed_tXsA() {  // ((_8,_1),_4,(_2,_2),(_1,_3)):((_1,_0),_2048,(144,288),(_0,_8192))
  return make_layout(make_shape(make_shape(_8{}, _1{}), _4{}, make_shape(_2{}, _2{}), make_shape(_1{}, _3{})),
                     make_stride(make_stride(_1{}, _0{}), Int<2048>{}, make_stride(144, 288), make_stride(_0{}, Int<8192>{})));
}
inline auto seed_tCrA() {  // ((_2,_2),_4,(_2,_2,_2)):((_1,_2),_4,(_16,_32,_64))
  return make_layout(make_shape(make_shape(_2{}, _2{}), _4{}, make_shape(_2{}, _2{}, _2{})),
                     make_stride(make_stride(_1{}, _2{}), _4{}, make_stride(Int<16>{}, Int<32>{}, Int<64>{})));
}
inline auto seed_tCrB() {  // (_2,_8,(_2,_2,_2)):(_1,_2,(_16,_32,_64))
  return make_layout(make_shape(_2{}, _8{}, make_shape(_2{}, _2{}, _2{})),
                     make_stride(_1{}, _2{}, make_stride(Int<16>{}, Int<32>{}, Int<64>{})));
}

// Every element of a (swizzled) shared-memory partition lives where the
// seed's plain layout says, counted from `base`.
template <class TensorT, class SeedLayout>
void expect_same_addresses(TensorT const& t, SeedLayout const& seed, half_t* base, char const* name) {
  ASSERT_EQ(int(size(t)), int(size(seed))) << name;
  auto const b = reinterpret_cast<std::uintptr_t>(base);
  for (int i = 0; i < int(size(seed)); ++i) {
    auto const addr = reinterpret_cast<std::uintptr_t>(raw_pointer_cast(t.data() + t.layout()(i)));
    EXPECT_EQ(addr, b + std::uintptr_t(seed(i)) * sizeof(half_t)) << name << " element " << i;
  }
}

// Same register index for every element.
template <class L, class SeedLayout>
void expect_same_function(L const& l, SeedLayout const& seed, char const* name) {
  ASSERT_EQ(int(size(l)), int(size(seed))) << name;
  for (int i = 0; i < int(size(seed)); ++i) EXPECT_EQ(int(l(i)), int(seed(i))) << name << " element " << i;
}

// Everything gemm_tn and gemm_device build, for one thread.
struct Seed000 {
  int m = 5120, n = 5120, k = 4096;
  int ldA = k, ldB = k, ldC = m;

  decltype(make_shape(0, 0, 0)) prob_shape = make_shape(m, n, k);                  // (M, N, K)
  decltype(make_stride(0, _1{})) dA = make_stride(ldA, _1{});                      // (dM, dK)
  decltype(make_stride(0, _1{})) dB = make_stride(ldB, _1{});                      // (dN, dK)
  decltype(make_stride(_1{}, 0)) dC = make_stride(_1{}, ldC);                      // (dM, dN)

  static constexpr auto bM = Int<128>{};
  static constexpr auto bN = Int<128>{};
  static constexpr auto bK = Int<64>{};
  static constexpr auto bP = Int<3>{};
  static auto cta_tiler() { return make_shape(bM, bN, bK); }  // (BLK_M, BLK_N, BLK_K)

  static auto swizzle_atom() {
    return composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  }
  static auto sA_layout() { return tile_to_shape(swizzle_atom(), make_shape(bM, bK, bP)); }
  static auto sB_layout() { return tile_to_shape(swizzle_atom(), make_shape(bN, bK, bP)); }

  static auto copyA() {
    return make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                           Layout<Shape<_16, _8>, Stride<_8, _1>>{},  // Thr layout 16x8 k-major
                           Layout<Shape<_1, _8>>{});                  // Val layout  1x8
  }
  static auto mmaC() {
    return make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{},
                          Layout<Shape<_2, _2>>{},  // 2x2x1 MMA atoms
                          Tile<_32, _32, _16>{});   // 32x32x16 tiled MMA for LDSM
  }
  static auto s2r_atom() { return Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}; }

  auto mA() const { return make_tensor(make_gmem_ptr(kA), select<0, 2>(prob_shape), dA); }  // (M,K)
  auto mB() const { return make_tensor(make_gmem_ptr(kB), select<1, 2>(prob_shape), dB); }  // (N,K)
  auto mC() const { return make_tensor(make_gmem_ptr(kC), select<0, 1>(prob_shape), dC); }  // (M,N)

  static auto cta_coord() { return make_coord(0, 0, Underscore{}); }  // (m,n,k)
  auto gA() const { return local_tile(mA(), cta_tiler(), cta_coord(), Step<_1, X, _1>{}); }  // (BLK_M,BLK_K,k)
  auto gB() const { return local_tile(mB(), cta_tiler(), cta_coord(), Step<X, _1, _1>{}); }  // (BLK_N,BLK_K,k)
  auto gC() const { return local_tile(mC(), cta_tiler(), cta_coord(), Step<_1, _1, X>{}); }  // (BLK_M,BLK_N)

  static auto sA() { return make_tensor(make_smem_ptr(kSmemA), sA_layout()); }  // (BLK_M,BLK_K,PIPE)
  static auto sB() { return make_tensor(make_smem_ptr(kSmemB), sB_layout()); }  // (BLK_N,BLK_K,PIPE)
};

TEST(Seed000, CopyPartitionG2S) {
  Seed000 s;
  auto thr_copy_a = Seed000::copyA().get_slice(0);
  auto tAgA = thr_copy_a.partition_S(s.gA());  // (CPY,CPY_M,CPY_K,k)
  auto tAsA = thr_copy_a.partition_D(s.sA());  // (CPY,CPY_M,CPY_K,PIPE)
  auto thr_copy_b = Seed000::copyA().get_slice(0);
  auto tBgB = thr_copy_b.partition_S(s.gB());  // (CPY,CPY_N,CPY_K,k)
  auto tBsB = thr_copy_b.partition_D(s.sB());  // (CPY,CPY_N,CPY_K,PIPE)

  EXPECT_EQ(printed(tAgA).pointer, "gmem_ptr[16b]");
  EXPECT_EQ(printed(tAgA).layout, "((_8,_1),_8,_1,64):((_1,_0),65536,_0,_64)");
  EXPECT_EQ(printed(tAsA).pointer, "smem_ptr[16b]");
  EXPECT_EQ(printed(tAsA).layout, "((_8,_1),_8,_1,(_1,_3)):((_1,_0),_1024,_0,(_0,_8192))");
  expect_same_addresses(tAsA, seed_tAsA(), kSmemA, "tAsA");
  EXPECT_EQ(printed(tBgB).pointer, "gmem_ptr[16b]");
  EXPECT_EQ(printed(tBgB).layout, "((_8,_1),_8,_1,64):((_1,_0),65536,_0,_64)");
  EXPECT_EQ(printed(tBsB).pointer, "smem_ptr[16b]");
  EXPECT_EQ(printed(tBsB).layout, "((_8,_1),_8,_1,(_1,_3)):((_1,_0),_1024,_0,(_0,_8192))");
  expect_same_addresses(tBsB, seed_tAsA(), kSmemB, "tBsB");
  EXPECT_EQ(size(Seed000::copyA()), 128);
}

// gemm_device's preconditions (seed 000, section 3.1) and its fragment
// checks, as the seed writes them: CUTE_STATIC_ASSERT_V through
// <tessera/cute_compat.hpp>. Each is a compile-time check; the test fails to
// build if one does not hold.
TEST(Seed000, PreconditionsPortVerbatim) {
  Seed000 s;
  auto shape_MNK = s.prob_shape;
  auto cta_tiler = Seed000::cta_tiler();
  auto copy_a = Seed000::copyA();
  auto copy_b = Seed000::copyA();
  auto mma = Seed000::mmaC();
  auto dA = s.dA;
  auto dB = s.dB;
  auto dC = s.dC;
  using ASmemLayout = decltype(Seed000::sA_layout());
  using BSmemLayout = decltype(Seed000::sB_layout());
  using CSmemLayout = decltype(make_layout(make_shape(Seed000::bM, Seed000::bN)));

  // Preconditions
  CUTE_STATIC_ASSERT_V(rank(shape_MNK) == Int<3>{});                   // (M, N, K)
  CUTE_STATIC_ASSERT_V(rank(cta_tiler) == Int<3>{});                   // (BLK_M, BLK_N, BLK_K)

  CUTE_STATIC_ASSERT_V(size(copy_a) == size(mma));                     // NumThreads
  CUTE_STATIC_ASSERT_V(size(copy_b) == size(mma));                     // NumThreads

  static_assert(is_static<ASmemLayout>::value);
  static_assert(is_static<BSmemLayout>::value);
  static_assert(is_static<CSmemLayout>::value);

  CUTE_STATIC_ASSERT_V(size<0>(ASmemLayout{}) == size<0>(cta_tiler));  // BLK_M
  CUTE_STATIC_ASSERT_V(size<0>(CSmemLayout{}) == size<0>(cta_tiler));  // BLK_M
  CUTE_STATIC_ASSERT_V(size<0>(BSmemLayout{}) == size<1>(cta_tiler));  // BLK_N
  CUTE_STATIC_ASSERT_V(size<1>(CSmemLayout{}) == size<1>(cta_tiler));  // BLK_N
  CUTE_STATIC_ASSERT_V(size<1>(ASmemLayout{}) == size<2>(cta_tiler));  // BLK_K
  CUTE_STATIC_ASSERT_V(size<1>(BSmemLayout{}) == size<2>(cta_tiler));  // BLK_K

  CUTE_STATIC_ASSERT_V(congruent(select<0,2>(shape_MNK), dA));         // dA strides for shape MK
  CUTE_STATIC_ASSERT_V(congruent(select<1,2>(shape_MNK), dB));         // dB strides for shape NK
  CUTE_STATIC_ASSERT_V(congruent(select<0,1>(shape_MNK), dC));         // dC strides for shape MN

  auto thr_mma = mma.get_slice(0);
  auto tCgC = thr_mma.partition_C(s.gC());
  auto tCrA = thr_mma.partition_fragment_A(Seed000::sA()(_, _, 0));
  auto tCrB = thr_mma.partition_fragment_B(Seed000::sB()(_, _, 0));
  auto tCrC = thr_mma.make_fragment_C(tCgC);
  CUTE_STATIC_ASSERT_V((  shape(tCrC) == take<0,3>(shape(tCgC)))); // (MMA,MMA_M,MMA_N)
  CUTE_STATIC_ASSERT_V((size<1>(tCgC) == size<1>(tCrA)));          // MMA_M
  CUTE_STATIC_ASSERT_V((size<2>(tCgC) == size<1>(tCrB)));          // MMA_N
  // the message form
  CUTE_STATIC_ASSERT_V(size(mma) == _128{}, "seed 000 runs 128 threads");
  TESSERA_STATIC_ASSERT_V(size<0>(cta_tiler) == _128{});
  SUCCEED() << "every check above is evaluated at compile time";
}

TEST(Seed000, MmaPartition) {
  Seed000 s;
  auto mma = Seed000::mmaC();
  EXPECT_EQ(int(size(mma)), 128);
  EXPECT_EQ(int(tile_size<0>(mma)), 32);
  EXPECT_EQ(int(tile_size<1>(mma)), 32);
  EXPECT_EQ(int(tile_size<2>(mma)), 16);

  auto thr_mma = mma.get_slice(0);
  auto tCgC = thr_mma.partition_C(s.gC());                      // (MMA,MMA_M,MMA_N)
  auto tCrA = thr_mma.partition_fragment_A(Seed000::sA()(Underscore{}, Underscore{}, 0));  // (MMA,MMA_M,MMA_K)
  auto tCrB = thr_mma.partition_fragment_B(Seed000::sB()(Underscore{}, Underscore{}, 0));  // (MMA,MMA_N,MMA_K)
  auto tCrC = thr_mma.make_fragment_C(tCgC);                    // (MMA,MMA_M,MMA_N)

  EXPECT_EQ(printed(s.mC()).pointer, "gmem_ptr[16b]");
  EXPECT_EQ(printed(s.mC()).layout, "(5120,5120):(_1,5120)");
  EXPECT_EQ(printed(s.gC()).layout, "(_128,_128):(_1,5120)");
  EXPECT_EQ(printed(tCgC).pointer, "gmem_ptr[16b]");
  EXPECT_EQ(printed(tCgC).layout, "((_2,_2),_4,(_2,_4)):((5120,_8),_32,(81920,163840))");
  EXPECT_EQ(printed(tCrA).pointer, "ptr[16b]");
  EXPECT_EQ(printed(tCrA).layout, "((_2,_2),_4,(_2,_2,_2)):((_1,_2),_4,(_16,_32,_64))");
  expect_same_function(tCrA.layout(), seed_tCrA(), "tCrA");
  static_assert(std::is_same_v<decltype(tCrA.layout()), decltype(seed_tCrA()) const&>, "tCrA: same static layout type as the seed's");
  EXPECT_EQ(printed(tCrB).pointer, "ptr[16b]");
  EXPECT_EQ(printed(tCrB).layout, "(_2,_8,(_2,_2,_2)):(_1,_2,(_16,_32,_64))");
  expect_same_function(tCrB.layout(), seed_tCrB(), "tCrB");
  static_assert(std::is_same_v<decltype(tCrB.layout()), decltype(seed_tCrB()) const&>, "tCrB: same static layout type as the seed's");
  EXPECT_EQ(printed(tCrC).pointer, "ptr[16b]");
  EXPECT_EQ(printed(tCrC).layout, "((_2,_2),_4,(_2,_4)):((_1,_2),_4,(_16,_32))");
}

TEST(Seed000, S2RRetiling) {
  auto mma = Seed000::mmaC();
  auto thr_mma = mma.get_slice(0);
  auto tCrA = thr_mma.partition_fragment_A(Seed000::sA()(Underscore{}, Underscore{}, 0));
  auto tCrB = thr_mma.partition_fragment_B(Seed000::sB()(Underscore{}, Underscore{}, 0));

  auto s2r_copy_a = make_tiled_copy_A(Seed000::s2r_atom(), mma);
  auto s2r_thr_copy_a = s2r_copy_a.get_slice(0);
  auto tXsA = s2r_thr_copy_a.partition_S(Seed000::sA());  // (CPY,MMA_M,MMA_K,PIPE)
  auto tXrA = s2r_thr_copy_a.retile_D(tCrA);              // (CPY,MMA_M,MMA_K)

  auto s2r_copy_b = make_tiled_copy_B(Seed000::s2r_atom(), mma);
  auto s2r_thr_copy_b = s2r_copy_b.get_slice(0);
  auto tXsB = s2r_thr_copy_b.partition_S(Seed000::sB());  // (CPY,MMA_N,MMA_K,PIPE)
  auto tXrB = s2r_thr_copy_b.retile_D(tCrB);              // (CPY,MMA_N,MMA_K)

  EXPECT_EQ(printed(tXsA).pointer, "smem_ptr[16b]");
  EXPECT_EQ(printed(tXsA).layout, "((_8,_1),_4,(_2,_2),(_1,_3)):((_1,_0),_2048,(144,288),(_0,_8192))");
  expect_same_addresses(tXsA, seed_tXsA(), kSmemA, "tXsA");
  EXPECT_EQ(printed(tXrA).pointer, "ptr[16b]");
  EXPECT_EQ(printed(tXrA).layout, "(((_4,_2),_1),_4,_4):(((_1,_16),_0),_4,_32)");
  EXPECT_EQ(printed(tXsB).pointer, "smem_ptr[16b]");
  EXPECT_EQ(printed(tXsB).layout, "((_8,_1),_4,(_2,_2),(_1,_3)):((_1,_0),_2048,(144,288),(_0,_8192))");
  expect_same_addresses(tXsB, seed_tXsA(), kSmemB, "tXsB");
  EXPECT_EQ(printed(tXrB).pointer, "ptr[16b]");
  EXPECT_EQ(printed(tXrB).layout, "(((_4,_2),_1),_4,_4):(((_1,_16),_0),_4,_32)");

  // retile_D views the same registers as tCrA: same data pointer.
  EXPECT_EQ(static_cast<void const*>(tXrA.data()), static_cast<void const*>(tCrA.data()));
}

// Every thread's shared-memory partitions (decayed to plain layouts) name the
// addresses the swizzled sA names: compared with the same partition of the
// swizzle_ptr form, where the swizzle is applied per access.
template <class A, class B>
void expect_same_element_addresses(A const& a, B const& b, int thread, char const* name) {
  ASSERT_EQ(int(size(a)), int(size(b))) << name;
  for (int i = 0; i < int(size(a)); ++i)
    ASSERT_EQ(static_cast<void const*>(raw_pointer_cast(a.data() + a.layout()(i))),
              static_cast<void const*>(raw_pointer_cast(b.data() + b.layout()(i))))
        << name << " thread " << thread << " element " << i;
}

TEST(Seed000, EveryThreadsSmemPartitionAddresses) {
  auto sA = Seed000::sA();
  auto sP = as_position_independent_swizzle_tensor(sA);
  auto copy = Seed000::copyA();
  auto s2r = make_tiled_copy_A(Seed000::s2r_atom(), Seed000::mmaC());
  for (int t = 0; t < 128; ++t) {
    auto tAsA = copy.get_slice(t).partition_D(sA);
    static_assert(is_layout_v<decltype(tAsA.layout())>, "tAsA decays to a plain layout");
    expect_same_element_addresses(tAsA, copy.get_slice(t).partition_D(sP), t, "tAsA");
    auto tXsA = s2r.get_slice(t).partition_S(sA);
    static_assert(is_layout_v<decltype(tXsA.layout())>, "tXsA decays to a plain layout");
    expect_same_element_addresses(tXsA, s2r.get_slice(t).partition_S(sP), t, "tXsA");
    // And against the composed layout itself: element (v,m,k,p) of thread t.
    auto tXsA_c = s2r.get_slice(t).partition_S(sP);
    for (int p = 0; p < 3; ++p) {
      auto a = tXsA(Underscore{}, Underscore{}, Underscore{}, p);
      auto b = tXsA_c(Underscore{}, Underscore{}, Underscore{}, p);
      expect_same_element_addresses(a, b, t, "tXsA(_,_,_,p)");
    }
  }
}

// Every element of sA(_,_,0) is loaded by exactly one (thread, value) of the
// ldmatrix copy, and lands where the MMA expects it: the s2r TiledCopy and
// the TiledMMA agree on (thr, val) -> (m, k).
TEST(Seed000, S2RCopyMatchesMmaA) {
  auto mma = Seed000::mmaC();
  auto s2r = make_tiled_copy_A(Seed000::s2r_atom(), mma);
  auto copy_tv = s2r.get_layoutD_TV();  // (thr,val) -> m + 32k
  auto mma_tv = mma.get_layoutA_TV();   // (thr,val) -> m + 32k
  ASSERT_EQ(int(size<0>(copy_tv)), 128);
  ASSERT_EQ(int(size<1>(copy_tv)), int(size<1>(mma_tv)));
  for (int t = 0; t < 128; ++t)
    for (int v = 0; v < int(size<1>(mma_tv)); ++v) EXPECT_EQ(int(copy_tv(t, v)), int(mma_tv(t, v))) << t << "," << v;
}

// Shared-memory bank conflicts of the seed's smem accesses, counted per
// hardware phase: a phase serves 8 threads of 16 bytes each (ldmatrix: one
// 8x8 matrix, its 8 row addresses; a 128-bit cp.async store: a quarter warp)
// and is conflict-free iff the 8 addresses fall in 8 distinct 16-byte bank
// groups (bank = byte address / 4 mod 32).
template <class AddrFn>
int phase_conflicts(AddrFn const& addr_of_thread) {
  int conflicts = 0;
  for (int warp = 0; warp < 4; ++warp) {
    for (int group = 0; group < 4; ++group) {
      std::set<int> bank_groups;
      for (int r = 0; r < 8; ++r) {
        std::uintptr_t const a = addr_of_thread(32 * warp + 8 * group + r);
        bank_groups.insert(int((a / 16) % 8));
      }
      conflicts += 8 - int(bank_groups.size());
    }
  }
  return conflicts;
}

template <class STensor>
int ldmatrix_conflicts(STensor const& s) {
  auto mma = Seed000::mmaC();
  auto s2r = make_tiled_copy_A(Seed000::s2r_atom(), mma);
  int total = 0;
  for (int m = 0; m < 4; ++m) {
    for (int k = 0; k < 4; ++k) {
      total += phase_conflicts([&](int t) {
        auto tXsA = s2r.get_slice(t).partition_S(s);
        return reinterpret_cast<std::uintptr_t>(raw_pointer_cast(tXsA.data() + tXsA.layout()(make_coord(0, m, k, 0))));
      });
    }
  }
  return total;
}

template <class STensor>
int cp_async_store_conflicts(STensor const& s) {
  auto copy = Seed000::copyA();
  int total = 0;
  for (int m = 0; m < 8; ++m) {
    total += phase_conflicts([&](int t) {
      auto tAsA = copy.get_slice(t).partition_D(s);
      return reinterpret_cast<std::uintptr_t>(raw_pointer_cast(tAsA.data() + tAsA.layout()(make_coord(0, m, 0, 0))));
    });
  }
  return total;
}

TEST(Seed000, SwizzledSmemHasNoBankConflicts) {
  EXPECT_EQ(ldmatrix_conflicts(Seed000::sA()), 0);
  EXPECT_EQ(cp_async_store_conflicts(Seed000::sA()), 0);
}

TEST(Seed000, UnswizzledSmemConflicts) {
  // Plain K-major rows of 64 halves (128 bytes): the 8 rows of each ldmatrix
  // matrix hit the same 4 banks -- 7 extra wavefronts per phase.
  auto naive = make_tensor(make_smem_ptr(kSmemA), make_layout(make_shape(Int<128>{}, Int<64>{}, Int<3>{}),
                                                             make_stride(Int<64>{}, _1{}, Int<8192>{})));
  EXPECT_EQ(ldmatrix_conflicts(naive), 4 * 4 * 4 * 4 * 7);
  // The seed's atom without its swizzle keeps ldmatrix rows apart but sends
  // the eight 16-byte cp.async stores of one row to the same banks.
  auto unswizzled_atom = Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{};
  auto plain = make_tensor(make_smem_ptr(kSmemA), tile_to_shape(unswizzled_atom, make_shape(Seed000::bM, Seed000::bK, Seed000::bP)));
  EXPECT_EQ(ldmatrix_conflicts(plain), 0);
  EXPECT_GT(cp_async_store_conflicts(plain), 0);
}

}  // namespace
