// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.

// arch::sm90a_image_loaded() in a translation unit built for 80;90a: an H100
// or H200 runs its sm_90a image, so the probe says yes, and the registry's
// Hopper kernel passes validate_kernel_device. The companion
// test_arch_sm90a_image_plain90.cu is built for sm_90 without the "a" and
// must say no on the same GPU (the case of a build whose architectures lack
// 90a, where sm90_ws_gemm would otherwise trap).

#include <gtest/gtest.h>

#include "device_test.cuh"

#include <tessera/arch/sm90/sm90a_image.cuh>
#include <tessera/gemm/api.hpp>

namespace {

TEST(Sm90aImage, LoadedWhereTheBuildHasIt) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  EXPECT_TRUE(tessera::arch::sm90a_image_loaded());
  const tessera::GemmKernel* k = tessera::find_gemm_kernel("sm90_ws_gemm");
  ASSERT_NE(k, nullptr);
  ASSERT_NE(k->missing_device_code, nullptr);
  tessera::Status const s = tessera::validate_kernel_device(*k, 90);
  EXPECT_TRUE(s.ok()) << s.message;
}

TEST(Sm90aImage, NotOnOtherArchitectures) {
  int const cc = tessera::test::device_cc();
  if (cc == 0 || cc == 90) GTEST_SKIP() << "needs a GPU other than sm_90, found " << tessera::test::device_name(cc);
  EXPECT_FALSE(tessera::arch::sm90a_image_loaded());
}

}  // namespace
