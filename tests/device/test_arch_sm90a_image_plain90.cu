// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.

// Built for sm_90 without the "a" (tests/CMakeLists.txt: the _plain90
// suffix): on an H100/H200 the driver runs this TU's sm_90 image, which has
// no wgmma or setmaxnreg, and arch::sm90a_image_loaded() must say so. This
// is the answer sm90_ws_gemm relies on to refuse a build without 90a.

#include <gtest/gtest.h>

#include "device_test.cuh"

#include <tessera/arch/sm90/sm90a_image.cuh>

namespace {

TEST(Sm90aImage, AbsentFromAPlainSm90Build) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  EXPECT_FALSE(tessera::arch::sm90a_image_loaded());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);  // the probe leaves no sticky error
}

}  // namespace
