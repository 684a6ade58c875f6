// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// print(a, b, ...) hands every argument to its own print overload (tensors,
// pointers, atoms, strings), and cosize_v sizes shared storage for swizzled
// (composed) layouts as seed 000's SharedStorage does.

#include <string>

#include <gtest/gtest.h>

#include <tessera/atom.hpp>
#include <tessera/tensor.hpp>

namespace {

using namespace tessera;

template <class... T>
std::string printed(T const&... t) {
  testing::internal::CaptureStdout();
  print(t...);
  std::fflush(stdout);
  return testing::internal::GetCapturedStdout();
}

TEST(PrintArgs, MixedArguments) {
  EXPECT_EQ(printed(make_shape(3, _2{}), " x ", 4, "\n"), "(3,_2) x 4\n");
  EXPECT_EQ(printed("text"), "text");
}

TEST(PrintArgs, TensorThenString) {
  float buf[16];
  auto t = make_tensor(make_gmem_ptr(buf), make_shape(Int<4>{}, Int<4>{}));
  std::string const s = printed(t, "\n");
  EXPECT_EQ(s.rfind("gmem_ptr[32b](", 0), 0u) << s;
  EXPECT_NE(s.find(") o (_4,_4):(_1,_4)\n"), std::string::npos) << s;
}

TEST(PrintArgs, AtomsMatchStreamOutput) {
  auto mma = make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN{}, Layout<Shape<_2, _2>>{}, Tile<_32, _32, _16>{});
  auto copy = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                              Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  std::ostringstream mma_os, copy_os;
  mma_os << mma << "|";
  copy_os << copy << "|";
  EXPECT_EQ(printed(mma, "|"), mma_os.str());
  EXPECT_EQ(printed(copy, "|"), copy_os.str());
  EXPECT_EQ(printed(mma.get_slice(5), "|"), mma_os.str());
  EXPECT_EQ(printed(copy.get_slice(7), "|"), copy_os.str());
  std::ostringstream atom_os;
  atom_os << Copy_Atom<SM75_U32x4_LDSM_N, half_t>{};
  EXPECT_EQ(printed(Copy_Atom<SM75_U32x4_LDSM_N, half_t>{}), atom_os.str());
}

TEST(CosizeV, ComposedSwizzledLayout) {
  auto atom = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Shape<_8, _8>>, Stride<_8, Stride<_1, _64>>>{});
  using SmemLayoutA = decltype(tile_to_shape(atom, make_shape(Int<128>{}, Int<64>{}, Int<3>{})));
  static_assert(cosize_v<SmemLayoutA> == 128 * 64 * 3, "cosize_v: seed 000's A buffer");
  static_assert(cosize_v<Layout<Shape<_4, _8>, Stride<_16, _1>>> == 3 * 16 + 7 + 1, "cosize_v: strided layout");
  half_t storage[cosize_v<SmemLayoutA>];
  EXPECT_EQ(sizeof(storage), std::size_t(128 * 64 * 3 * 2));
}

}  // namespace
