// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// TMA descriptors from Tessera layouts (tessera/tma/make_tma_desc.hpp) and
// TMA coordinate tensors (tessera/tma/tma_coord.hpp).
//
// TmaDesc.*: no GPU needed (host rules only; they run everywhere). Fixed
// answers for row-/column-major, 3-D, every swizzle and element types, and
// one test per rule make_tma_desc enforces, each checking that the message
// names the rule. (They predate host tests with the CUDA headers,
// tests/host/test_*_cudah.cpp, where the plans of ranks 1, 4 and 5 are.)
//
// TmaTensor.*: sm_90 only. For (gmem layout, smem layout) pairs built with
// the layout algebra, every tile of a random matrix is loaded by TMA (tile
// origin from the coordinate tensor through local_tile and the plan's
// coordinate map, completion on an mbarrier with expect_tx of the plan's
// box_bytes), read back through the *same* smem layout (element c at
// smem_layout(c)) and compared bit for bit with the host's copy; elements
// past the matrix edge must read 0. Also a TMA store of every tile into a
// destination with another leading dimension, whose padding must stay
// untouched.
//
// TmaModel.*: the same cases with the GPU replaced by a host model of TMA
// that works from the descriptor alone (dims, byte strides, box, swizzle;
// zero fill and clipping at the edges), so that the descriptor make_tma_desc
// derives is checked against the layouts it came from without a GPU.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <tessera/arch/sm90/fence.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>
#include <tessera/arch/sm90/tma.cuh>
#include <tessera/tensor.hpp>
#include <tessera/tma/make_tma_desc.hpp>
#include <tessera/tma/tma_coord.hpp>
#include <tessera/tma/tma_slice.hpp>
#include <tessera/atom/gmma_smem_atoms.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using bf16 = __nv_bfloat16;

// ============================================================================
// Host rules (no GPU)
// ============================================================================

// 16-byte aligned backing store for the host-only plans (never dereferenced
// by TMA here; the address only has to pass the alignment rule).
alignas(1024) unsigned char g_host_buf[1 << 16];
template <class T>
T const* host_ptr(std::size_t byte_offset = 0) {
  return reinterpret_cast<T const*>(g_host_buf + byte_offset);
}

// Sw<B,M,3> o (shape):(stride), the usual spelling of a swizzled box.
template <int B, int M, class S, class D>
auto swizzled(S const& s, D const& d) {
  return make_composed_layout(Swizzle<B, M, 3>{}, Int<0>{}, make_layout(s, d));
}

TEST(TmaDesc, RowMajorBf16Swizzle128) {
  // (M, K) = (200, 136), leading dimension 144; boxes of 64 rows x 64 columns.
  auto g = make_layout(make_shape(200, 136), make_stride(144, _1{}));
  auto s = swizzled<3, 3>(make_shape(_64{}, _64{}), make_stride(_64{}, _1{}));
  TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_TRUE(p.error.empty());
  EXPECT_EQ(p.rank, 2);
  EXPECT_EQ(p.mode_of_dim[0], 1);  // K is contiguous: TMA dimension 0
  EXPECT_EQ(p.mode_of_dim[1], 0);
  EXPECT_EQ(p.dim_of_mode[0], 1);
  EXPECT_EQ(p.dim_of_mode[1], 0);
  EXPECT_EQ(p.desc.type, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(p.desc.elem_bytes, 2);
  EXPECT_EQ(p.desc.rank, 2);
  EXPECT_EQ(p.desc.base, static_cast<const void*>(host_ptr<bf16>()));
  EXPECT_EQ(p.desc.dims[0], 136u);
  EXPECT_EQ(p.desc.dims[1], 200u);
  EXPECT_EQ(p.desc.strides[0], 288u);
  EXPECT_EQ(p.desc.box[0], 64u);
  EXPECT_EQ(p.desc.box[1], 64u);
  EXPECT_EQ(p.desc.swizzle, tma::Swizzle::b128);
  EXPECT_EQ(p.box_bytes, 8192u);
  EXPECT_EQ(p.smem_align, 1024u);
  // Mode coordinates (m, k) -> TMA coordinates {k, m}.
  TmaCoords const c = p.tma_coords(make_coord(5, 64));
  EXPECT_EQ(c[0], 64);
  EXPECT_EQ(c[1], 5);
  EXPECT_EQ(c[2], 0);
}

TEST(TmaDesc, ColumnMajorBf16Swizzle128) {
  // (M, N) = (150, 100) column-major, leading dimension 152; boxes (64, 48).
  auto g = make_layout(make_shape(150, 100), make_stride(_1{}, 152));
  auto s = swizzled<3, 3>(make_shape(_64{}, _48{}), make_stride(_1{}, _64{}));
  TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.mode_of_dim[0], 0);
  EXPECT_EQ(p.mode_of_dim[1], 1);
  EXPECT_EQ(p.desc.dims[0], 150u);
  EXPECT_EQ(p.desc.dims[1], 100u);
  EXPECT_EQ(p.desc.strides[0], 304u);
  EXPECT_EQ(p.desc.box[0], 64u);
  EXPECT_EQ(p.desc.box[1], 48u);
  EXPECT_EQ(p.desc.swizzle, tma::Swizzle::b128);
  EXPECT_EQ(p.box_bytes, 64u * 48u * 2u);
  TmaCoords const c = p.tma_coords(make_coord(128, 48));
  EXPECT_EQ(c[0], 128);
  EXPECT_EQ(c[1], 48);
}

TEST(TmaDesc, ThreeDimensional) {
  // (M, N, L) = (50, 72, 3), row-major matrices of leading dimension 80,
  // batch stride 4000; boxes (16, 64, 2): TMA dims (N, M, L).
  auto g = make_layout(make_shape(50, 72, 3), make_stride(80, _1{}, 4000));
  auto s = swizzled<3, 3>(make_shape(_16{}, _64{}, _2{}), make_stride(_64{}, _1{}, Int<1024>{}));
  TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.rank, 3);
  EXPECT_EQ(p.mode_of_dim[0], 1);
  EXPECT_EQ(p.mode_of_dim[1], 0);
  EXPECT_EQ(p.mode_of_dim[2], 2);
  EXPECT_EQ(p.dim_of_mode[0], 1);
  EXPECT_EQ(p.dim_of_mode[1], 0);
  EXPECT_EQ(p.dim_of_mode[2], 2);
  EXPECT_EQ(p.desc.rank, 3);
  EXPECT_EQ(p.desc.dims[0], 72u);
  EXPECT_EQ(p.desc.dims[1], 50u);
  EXPECT_EQ(p.desc.dims[2], 3u);
  EXPECT_EQ(p.desc.strides[0], 160u);
  EXPECT_EQ(p.desc.strides[1], 8000u);
  EXPECT_EQ(p.desc.box[0], 64u);
  EXPECT_EQ(p.desc.box[1], 16u);
  EXPECT_EQ(p.desc.box[2], 2u);
  EXPECT_EQ(p.box_bytes, 16u * 64u * 2u * 2u);
  TmaCoords const c = p.tma_coords(make_coord(16, 64, 2));
  EXPECT_EQ(c[0], 64);
  EXPECT_EQ(c[1], 16);
  EXPECT_EQ(c[2], 2);
}

TEST(TmaDesc, Swizzle64And32AndNone) {
  auto g = make_layout(make_shape(99, 70), make_stride(72, _1{}));
  {
    TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, swizzled<2, 3>(make_shape(_40{}, _32{}), make_stride(_32{}, _1{})));
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.desc.swizzle, tma::Swizzle::b64);
    EXPECT_EQ(p.desc.box[0], 32u);
    EXPECT_EQ(p.desc.box[1], 40u);
    EXPECT_EQ(p.smem_align, 512u);
  }
  {
    TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, swizzled<1, 3>(make_shape(_24{}, _16{}), make_stride(_16{}, _1{})));
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.desc.swizzle, tma::Swizzle::b32);
    EXPECT_EQ(p.desc.box[0], 16u);
    EXPECT_EQ(p.desc.box[1], 24u);
    EXPECT_EQ(p.smem_align, 256u);
  }
  {
    TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, make_layout(make_shape(_24{}, _40{}), make_stride(_40{}, _1{})));
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.desc.swizzle, tma::Swizzle::none);
    EXPECT_EQ(p.desc.box[0], 40u);
    EXPECT_EQ(p.desc.box[1], 24u);
    EXPECT_EQ(p.smem_align, 128u);
    EXPECT_EQ(p.box_bytes, 24u * 40u * 2u);
  }
  {
    // Swizzle<0,...> is the identity: an unswizzled box.
    TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, swizzled<0, 3>(make_shape(_24{}, _40{}), make_stride(_40{}, _1{})));
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.desc.swizzle, tma::Swizzle::none);
  }
}

TEST(TmaDesc, ElementTypes) {
  auto g = make_layout(make_shape(70, 90), make_stride(92, _1{}));
  {
    TmaPlan const p = make_tma_desc(host_ptr<float>(), g, swizzled<3, 2>(make_shape(_16{}, _32{}), make_stride(_32{}, _1{})));
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.desc.type, CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
    EXPECT_EQ(p.desc.elem_bytes, 4);
    EXPECT_EQ(p.desc.strides[0], 368u);
    EXPECT_EQ(p.desc.box[0], 32u);
    EXPECT_EQ(p.desc.swizzle, tma::Swizzle::b128);
  }
  {
    TmaPlan const p = make_tma_desc(host_ptr<tfloat32_t>(), g, swizzled<3, 2>(make_shape(_16{}, _32{}), make_stride(_32{}, _1{})));
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.desc.type, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32);
  }
  auto g16 = make_layout(make_shape(70, 96), make_stride(96, _1{}));
  auto s16 = swizzled<3, 3>(make_shape(_8{}, _64{}), make_stride(_64{}, _1{}));
  EXPECT_EQ(make_tma_desc(host_ptr<half_t>(), g16, s16).desc.type, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(make_tma_desc(host_ptr<__half>(), g16, s16).desc.type, CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(make_tma_desc(host_ptr<bfloat16_t>(), g16, s16).desc.type, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(make_tma_desc(host_ptr<std::uint16_t>(), g16, s16).desc.type, CU_TENSOR_MAP_DATA_TYPE_UINT16);
  {
    // 1-byte elements: 128B rows are 128 elements, Swizzle<3,4,3>.
    auto g8 = make_layout(make_shape(40, 256), make_stride(256, _1{}));
    TmaPlan const p = make_tma_desc(host_ptr<std::int8_t>(), g8, swizzled<3, 4>(make_shape(_8{}, _128{}), make_stride(_128{}, _1{})));
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.desc.type, CU_TENSOR_MAP_DATA_TYPE_UINT8);
    EXPECT_EQ(p.desc.box[0], 128u);
  }
  {
    // 8-byte elements: Swizzle<3,1,3>, 16 per 128-byte row.
    auto g64 = make_layout(make_shape(16, 20), make_stride(_1{}, 16));
    TmaPlan const p = make_tma_desc(host_ptr<double>(), g64, swizzled<3, 1>(make_shape(_16{}, _8{}), make_stride(_1{}, _16{})));
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.desc.type, CU_TENSOR_MAP_DATA_TYPE_FLOAT64);
    EXPECT_EQ(p.desc.strides[0], 128u);
  }
  {
    auto gi = make_layout(make_shape(70, 96), make_stride(96, _1{}));
    TmaPlan const p = make_tma_desc(host_ptr<std::int32_t>(), gi, make_layout(make_shape(_8{}, _32{}), make_stride(_32{}, _1{})));
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.desc.type, CU_TENSOR_MAP_DATA_TYPE_INT32);
  }
}

// Any spelling of the same function passes: a 64x64 128B box written as
// 8-row atoms ((8,8),64):((64,512),1) is the same map as (64,64):(64,1).
TEST(TmaDesc, HierarchicalSmemSpelling) {
  auto g = make_layout(make_shape(200, 136), make_stride(144, _1{}));
  auto flat = swizzled<3, 3>(make_shape(_64{}, _64{}), make_stride(_64{}, _1{}));
  auto tiled = swizzled<3, 3>(make_shape(make_shape(_8{}, _8{}), _64{}), make_stride(make_stride(_64{}, Int<512>{}), _1{}));
  TmaPlan const a = make_tma_desc(host_ptr<bf16>(), g, flat);
  TmaPlan const b = make_tma_desc(host_ptr<bf16>(), g, tiled);
  ASSERT_TRUE(a.ok) << a.error;
  ASSERT_TRUE(b.ok) << b.error;
  for (int d = 0; d < 2; ++d) {
    EXPECT_EQ(a.desc.dims[d], b.desc.dims[d]);
    EXPECT_EQ(a.desc.box[d], b.desc.box[d]);
  }
  EXPECT_EQ(a.desc.strides[0], b.desc.strides[0]);
  EXPECT_EQ(a.desc.swizzle, b.desc.swizzle);
}

TEST(TmaDesc, TensorOverloadMatchesPointerOverload) {
  auto g = make_layout(make_shape(150, 100), make_stride(_1{}, 152));
  auto s = swizzled<3, 3>(make_shape(_64{}, _48{}), make_stride(_1{}, _64{}));
  auto mA = make_tensor(make_gmem_ptr(host_ptr<bf16>()), g);  // (M,N)
  TmaPlan const a = make_tma_desc(mA, s);
  TmaPlan const b = make_tma_desc(host_ptr<bf16>(), g, s);
  ASSERT_TRUE(a.ok) << a.error;
  EXPECT_EQ(a.desc.base, b.desc.base);
  EXPECT_EQ(a.desc.type, b.desc.type);
  EXPECT_EQ(a.desc.dims[0], b.desc.dims[0]);
  EXPECT_EQ(a.desc.dims[1], b.desc.dims[1]);
  EXPECT_EQ(a.desc.strides[0], b.desc.strides[0]);
  EXPECT_EQ(a.desc.box[0], b.desc.box[0]);
  EXPECT_EQ(a.desc.box[1], b.desc.box[1]);
}

// The coordinate tensor's tile origins: t * box per mode, also for the
// partial tiles at the edges; the coordinate map permutes them as
// mode_of_dim says.
TEST(TmaDesc, CoordinateTensorTileOrigins) {
  auto g = make_layout(make_shape(50, 72, 3), make_stride(80, _1{}, 4000));
  auto s = swizzled<3, 3>(make_shape(_16{}, _64{}, _2{}), make_stride(_64{}, _1{}, Int<1024>{}));
  TmaPlan const p = make_tma_desc(host_ptr<bf16>(), g, s);
  ASSERT_TRUE(p.ok) << p.error;
  TmaCoordMap const map = p.coord_map();
  auto cG = make_tma_coord_tensor(shape(g));  // (M,N,L) -> (m,n,l)
  auto box = make_shape(_16{}, _64{}, _2{});
  int checked = 0;
  for (int t2 = 0; t2 < 2; ++t2)
    for (int t1 = 0; t1 < 2; ++t1)
      for (int t0 = 0; t0 < 4; ++t0) {
        auto cT = local_tile(cG, box, make_coord(t0, t1, t2));  // (16,64,2)
        auto const o = cT(0, 0, 0);
        EXPECT_EQ(int(get<0>(o)), 16 * t0);
        EXPECT_EQ(int(get<1>(o)), 64 * t1);
        EXPECT_EQ(int(get<2>(o)), 2 * t2);
        // An element inside the tile: the coordinate tensor holds origin + offset.
        auto const e = cT(3, 5, 1);
        EXPECT_EQ(int(get<0>(e)), 16 * t0 + 3);
        EXPECT_EQ(int(get<1>(e)), 64 * t1 + 5);
        EXPECT_EQ(int(get<2>(e)), 2 * t2 + 1);
        TmaCoords const c = map(o);
        int const m[3] = {16 * t0, 64 * t1, 2 * t2};
        for (int d = 0; d < 3; ++d) EXPECT_EQ(c[d], m[p.mode_of_dim[d]]) << "dimension " << d;
        ++checked;
      }
  EXPECT_EQ(checked, 16);
}

// Each rule: the plan fails and the message names the rule.
void expect_error(TmaPlan const& p, std::string const& needle) {
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.error.rfind("make_tma_desc: ", 0), 0u) << p.error;
  EXPECT_NE(p.error.find(needle), std::string::npos) << "message: " << p.error << "\nwanted: " << needle;
}

TEST(TmaDesc, GmemRules) {
  auto s64 = swizzled<3, 3>(make_shape(_64{}, _64{}), make_stride(_64{}, _1{}));
  // No stride-1 mode.
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(64, 64), make_stride(128, 2)), s64),
               "no gmem mode has stride 1");
  // Two stride-1 modes.
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(64, 64), make_stride(_1{}, _1{})), s64),
               "gmem modes 0 and 1 both have stride 1");
  // Leading dimension 100 bf16 = 200 bytes.
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(64, 96), make_stride(100, _1{})), s64),
               "gmem mode 0 has stride 100 elements = 200 bytes, not a multiple of 16");
  // Misaligned base.
  expect_error(make_tma_desc(host_ptr<bf16>(2), make_layout(make_shape(64, 64), make_stride(64, _1{})), s64),
               "not 16-byte aligned");
  // A nested mode is flattened (tests/host/test_tma_modes_cudah.cpp has the
  // rules): 64 rows along (2,32) are whole sub-modes and accepted; 64 along
  // (3,32) cut it unevenly and are refused by name.
  EXPECT_TRUE(make_tma_desc(host_ptr<bf16>(),
                            make_layout(make_shape(make_shape(2, 32), 64), make_stride(make_stride(64, 128), _1{})), s64)
                  .ok);
  expect_error(make_tma_desc(host_ptr<bf16>(),
                             make_layout(make_shape(make_shape(3, 32), 64), make_stride(make_stride(64, 192), _1{})),
                             s64),
               "not a colexicographic prefix of its sub-modes (3, 32)");
  // Rank 6 (ranks 1 to 5 are TMA's; ranks 1, 4 and 5 are tested in
  // tests/host/test_tma_desc_rank_cudah.cpp).
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(8, 8, 8, 8, 2, 2), make_stride(_1{}, 8, 64, 512, 4096, 8192)),
                             make_layout(make_shape(_8{}, _8{}, _8{}, _8{}, _2{}, _2{}))),
               "gmem layout has rank 6; TMA tiles have rank 1 to 5");
  // Non-positive stride.
  expect_error(make_tma_desc(host_ptr<bf16>(), make_layout(make_shape(64, 64), make_stride(-64, _1{})), s64),
               "TMA strides are positive");
  // Size beyond 2^32.
  expect_error(make_tma_desc(host_ptr<bf16>(),
                             make_layout(make_shape(std::int64_t(5) << 30, std::int64_t(64)),
                                         make_stride(_1{}, std::int64_t(5) << 30)),
                             make_layout(make_shape(_64{}, _64{}))),
               "gmem mode 0 has size 5368709120, outside [1, 2^32]");
  // Stride of 2^40 bytes.
  expect_error(make_tma_desc(host_ptr<bf16>(),
                             make_layout(make_shape(std::int64_t(64), std::int64_t(64)),
                                         make_stride(std::int64_t(1) << 39, _1{})),
                             s64),
               "not below 2^40");
}

TEST(TmaDesc, SmemRules) {
  auto g = make_layout(make_shape(200, 136), make_stride(144, _1{}));
  // Rank mismatch.
  expect_error(make_tma_desc(host_ptr<bf16>(), g, make_layout(make_shape(_8{}, _8{}, _8{}))),
               "smem layout has rank 3, the gmem layout 2");
  // Box beyond 256.
  expect_error(make_tma_desc(host_ptr<bf16>(), g, make_layout(make_shape(Int<512>{}, _8{}), make_stride(_8{}, _1{}))),
               "smem mode 0 (the box along gmem mode 0) has size 512, outside [1, 256]");
  // Contiguous extent 4 bf16 = 8 bytes.
  expect_error(make_tma_desc(host_ptr<bf16>(), g, make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{}))),
               "is 4 elements = 8 bytes, not a multiple of 16");
  // Padded rows (72 elements for a 64-wide box).
  expect_error(make_tma_desc(host_ptr<bf16>(), g, make_layout(make_shape(_64{}, _64{}), make_stride(Int<72>{}, _1{}))),
               "smem layout is not the box TMA writes: element (1, 0) at offset 72, TMA writes it at 64");
  // The wrong mode fastest (column-major box of a row-major matrix).
  expect_error(make_tma_desc(host_ptr<bf16>(), g, swizzled<3, 3>(make_shape(_64{}, _64{}), make_stride(_1{}, _64{}))),
               "(mode 1) fastest");
  // Swizzle of the wrong width: 64B swizzle on 128-byte rows.
  expect_error(make_tma_desc(host_ptr<bf16>(), g, swizzled<2, 3>(make_shape(_64{}, _64{}), make_stride(_64{}, _1{}))),
               "is TMA's 64B mode, whose rows span 64 bytes, but the box along the contiguous gmem mode 1 is 64 "
               "elements = 128 bytes");
  // Swizzle of the wrong base (bytes instead of 2-byte elements).
  expect_error(make_tma_desc(host_ptr<bf16>(), g, swizzled<3, 4>(make_shape(_64{}, _64{}), make_stride(_64{}, _1{}))),
               "Swizzle<3,4,3> is not a TMA swizzle for 2-byte elements");
  // Swizzle of the wrong shift.
  expect_error(make_tma_desc(host_ptr<bf16>(), g,
                             make_composed_layout(Swizzle<2, 3, 4>{}, _0{},
                                                  make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})))),
               "Swizzle<2,3,4> is not a TMA swizzle");
  // A swizzled box whose layout pads its rows: the exhaustive check finds it.
  expect_error(make_tma_desc(host_ptr<bf16>(), g, swizzled<3, 3>(make_shape(_64{}, _64{}), make_stride(Int<72>{}, _1{}))),
               "smem layout is not the box TMA writes");
  // A non-zero offset inside the composed layout shifts the whole box.
  expect_error(make_tma_desc(host_ptr<bf16>(), g,
                             make_composed_layout(Swizzle<3, 3, 3>{}, Int<64>{},
                                                  make_layout(make_shape(_64{}, _64{}), make_stride(_64{}, _1{})))),
               "element (0, 0) at offset");
  // tma::encode of a failed plan reports the plan's error without calling the driver.
  TmaPlan const bad = make_tma_desc(host_ptr<bf16>(), g, make_layout(make_shape(_8{}, _4{}), make_stride(_4{}, _1{})));
  CUtensorMap m;
  tma::EncodeResult const r = tma::encode(&m, bad);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.message, bad.error);
}

// ============================================================================
// GPU round trips (sm_90)
// ============================================================================

constexpr int kSmemBytes = 96 * 1024;

// The bits of T as an unsigned integer (for bit-exact comparison).
template <class T>
std::uint64_t bits_of(T const& v) {
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof(T));
  return u;
}

// One CTA per tile: TMA-load tile blockIdx.x of the (s0, s1[, s2]) tensor,
// copy its elements to out[tile][i0 + B0 * (i1 + B1 * i2)] reading element
// (i0, i1, i2) at smem_layout(i0, i1, i2); then, with `do_store`, TMA-store
// the shared box to `store_map` at the same mode coordinates mapped by
// `store_coords`.
template <class T, int R, class SLayout>
__global__ void tma_tile_kernel(const __grid_constant__ CUtensorMap tmap, TmaCoordMap coords, int s0, int s1, int s2,
                                uint32_t box_bytes, uint32_t smem_align, T* out,
                                const __grid_constant__ CUtensorMap store_map, TmaCoordMap store_coords, int do_store) {
  extern __shared__ __align__(1024) uint8_t smem_raw[];
  __shared__ uint64_t bar;
  uint32_t const raw = arch::smem_u32(smem_raw);
  uint8_t* const smem = smem_raw + ((smem_align - (raw % smem_align)) % smem_align);
  SLayout const sl{};
  constexpr int B0 = int(decltype(size<0>(sl))::value);
  constexpr int B1 = int(decltype(size<1>(sl))::value);
  constexpr int B2 = R == 3 ? int(decltype(size<R - 1>(sl))::value) : 1;
  int const n0 = (s0 + B0 - 1) / B0, n1 = (s1 + B1 - 1) / B1;
  int const t0 = int(blockIdx.x) % n0, t1 = (int(blockIdx.x) / n0) % n1, t2 = int(blockIdx.x) / (n0 * n1);

  // Poison shared memory: a load that writes nothing must not pass.
  for (uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x) smem[i] = 0xA5;
  arch::fence_proxy_async_shared_cta();
  if (threadIdx.x == 0) {
    arch::mbarrier_init(&bar, 1);
    arch::fence_mbarrier_init();
  }
  __syncthreads();

  // The tile origin from the coordinate tensor, tiled like the data.
  TmaCoords c, cs;
  if constexpr (R == 2) {
    auto cT = local_tile(make_tma_coord_tensor(make_shape(s0, s1)), make_shape(Int<B0>{}, Int<B1>{}),
                         make_coord(t0, t1));  // (B0,B1)
    c = coords(cT(0, 0));
    cs = store_coords(cT(0, 0));
  } else {
    auto cT = local_tile(make_tma_coord_tensor(make_shape(s0, s1, s2)), make_shape(Int<B0>{}, Int<B1>{}, Int<B2>{}),
                         make_coord(t0, t1, t2));  // (B0,B1,B2)
    c = coords(cT(0, 0, 0));
    cs = store_coords(cT(0, 0, 0));
  }
  if (threadIdx.x == 0) {
    arch::tma_prefetch_descriptor(&tmap);
    arch::mbarrier_arrive_expect_tx(&bar, box_bytes);
    if constexpr (R == 2) arch::tma_load_2d(smem, &tmap, &bar, c[0], c[1]);
    else arch::tma_load_3d(smem, &tmap, &bar, c[0], c[1], c[2]);
  }
  arch::mbarrier_wait(&bar, 0);

  // Read the box back through the smem layout: element (i0,i1,i2) of the tile.
  auto sT = make_tensor(make_smem_ptr(reinterpret_cast<T*>(smem)), sl);  // (B0,B1[,B2])
  T* const o = out + std::size_t(blockIdx.x) * (B0 * B1 * B2);
  for (int i = int(threadIdx.x); i < B0 * B1 * B2; i += int(blockDim.x)) {
    int const i0 = i % B0, i1 = (i / B0) % B1, i2 = i / (B0 * B1);
    if constexpr (R == 2) o[i] = sT(i0, i1);
    else o[i] = sT(i0, i1, i2);
  }
  __syncthreads();
  if (do_store && threadIdx.x == 0) {
    if constexpr (R == 2) {
      arch::tma_store_2d(&store_map, smem, cs[0], cs[1]);
    } else {
      arch::tma_store_3d(&store_map, smem, cs[0], cs[1], cs[2]);
    }
    arch::tma_store_commit_group();
    arch::tma_store_wait_writes<0>();
  }
  __syncthreads();
  if (threadIdx.x == 0) arch::mbarrier_inval(&bar);
}

using tessera::test::DevBuf;

// f(Int<0>{}), ..., f(Int<R-1>{}).
template <int R, class F>
void for_modes(F&& f) {
  [&]<int... I>(std::integer_sequence<int, I...>) { (f(Int<I>{}), ...); }(std::make_integer_sequence<int, R>{});
}

// Elements one past the largest offset of a flat layout with non-negative strides.
template <class L>
std::size_t span_of(L const& l) {
  std::size_t last = 0;
  for_modes<std::remove_cvref_t<L>::rank>([&](auto m) {
    constexpr int M = decltype(m)::value;
    last += std::size_t(std::int64_t(shape<M>(l)) - 1) * std::size_t(std::int64_t(stride<M>(l)));
  });
  return last + 1;
}

template <class L>
void flat_modes(L const& l, std::int64_t* sz, std::int64_t* st) {
  for_modes<std::remove_cvref_t<L>::rank>([&](auto m) {
    constexpr int M = decltype(m)::value;
    sz[M] = std::int64_t(shape<M>(l));
    st[M] = std::int64_t(stride<M>(l));
  });
}

// Random non-zero bit patterns of T.
template <class T>
std::vector<T> random_elements(std::size_t n, std::mt19937_64& rng) {
  std::vector<T> v(n);
  for (auto& x : v) {
    std::uint64_t u = 0;
    while (u == 0) u = rng() & (sizeof(T) == 8 ? ~std::uint64_t(0) : ((std::uint64_t(1) << (8 * sizeof(T))) - 1));
    std::memcpy(static_cast<void*>(&x), &u, sizeof(T));
  }
  return v;
}

// A host model of the kernel, for the GPU-free test: the tile origin from
// the coordinate tensor and the plan's coordinate map, as in the kernel; the
// box copied as TMA does it, from the *descriptor* alone (dims, byte strides,
// box, swizzle; zeros outside) into a byte image; read back through the smem
// layout; with a store plan, the image written back through that plan's
// descriptor (clipped at the edges).
template <class T, int R, class SLayout>
void emulate_tile(TmaPlan const& plan, TmaPlan const* store, SLayout const& sl, std::int64_t const* sz,
                  std::int64_t const* bx, std::int64_t t0, std::int64_t t1, std::int64_t t2, T* out_tile) {
  TmaCoords c, cs;
  if constexpr (R == 2) {
    auto cT = local_tile(make_tma_coord_tensor(make_shape(sz[0], sz[1])), make_shape(bx[0], bx[1]), make_coord(t0, t1));
    c = plan.coord_map()(cT(0, 0));
    if (store != nullptr) cs = store->coord_map()(cT(0, 0));
  } else {
    auto cT = local_tile(make_tma_coord_tensor(make_shape(sz[0], sz[1], sz[2])), make_shape(bx[0], bx[1], bx[2]),
                         make_coord(t0, t1, t2));
    c = plan.coord_map()(cT(0, 0, 0));
    if (store != nullptr) cs = store->coord_map()(cT(0, 0, 0));
  }
  tma::TiledDesc const& d = plan.desc;
  int const e = d.elem_bytes;
  int const bits = d.swizzle == tma::Swizzle::b128 ? 3 : d.swizzle == tma::Swizzle::b64 ? 2 : d.swizzle == tma::Swizzle::b32 ? 1 : 0;
  std::vector<unsigned char> image(plan.box_bytes, 0xA5);
  // Visits every box element: its TMA offset in `image` and its global element
  // offset under descriptor `dd` at origin `o` (-1 outside the tensor).
  auto each = [&](tma::TiledDesc const& dd, TmaCoords const& o, auto&& f) {
    for (std::int64_t x2 = 0; x2 < (R == 3 ? std::int64_t(d.box[2]) : 1); ++x2)
      for (std::int64_t x1 = 0; x1 < std::int64_t(d.box[1]); ++x1)
        for (std::int64_t x0 = 0; x0 < std::int64_t(d.box[0]); ++x0) {
          std::int64_t const x[3] = {x0, x1, x2};
          std::int64_t off = 0;
          bool inside = true;
          for (int k = 0; k < R; ++k) {
            std::int64_t const gk = std::int64_t(o[k]) + x[k];
            inside = inside && gk >= 0 && gk < std::int64_t(dd.dims[k]);
            off += k == 0 ? gk : gk * std::int64_t(dd.strides[k - 1]) / e;
          }
          std::int64_t const byte = ((x0 + std::int64_t(d.box[0]) * (x1 + std::int64_t(d.box[1]) * x2)) * e);
          std::int64_t const phys = byte ^ (((byte >> 7) & ((1 << bits) - 1)) << 4);
          f(phys, inside ? off : -1);
        }
  };
  T const* src = static_cast<T const*>(d.base);
  each(d, c, [&](std::int64_t phys, std::int64_t off) {
    T v;
    std::memset(static_cast<void*>(&v), 0, sizeof(T));
    if (off >= 0) v = src[off];
    std::memcpy(image.data() + phys, &v, sizeof(T));
  });
  for (std::int64_t i = 0; i < bx[0] * bx[1] * bx[2]; ++i) {
    std::int64_t const i0 = i % bx[0], i1 = (i / bx[0]) % bx[1], i2 = i / (bx[0] * bx[1]);
    std::int64_t at = 0;
    if constexpr (R == 2) at = std::int64_t(sl(int(i0), int(i1)));
    else at = std::int64_t(sl(int(i0), int(i1), int(i2)));
    std::memcpy(&out_tile[i], image.data() + at * e, sizeof(T));
  }
  if (store != nullptr) {
    T* dst = static_cast<T*>(const_cast<void*>(store->desc.base));
    each(store->desc, cs, [&](std::int64_t phys, std::int64_t off) {
      if (off >= 0) std::memcpy(&dst[off], image.data() + phys, sizeof(T));
    });
  }
}

enum class Exec { gpu, host_model };

// Loads every tile of the gmem tensor (and with `dst_layout`, stores it to a
// second tensor of that layout) on the GPU or through the host model, and
// checks the result against the host's copy; "" when right.
template <class T, class GLayout, class SLayout, class DLayout = GLayout>
std::string tile_round_trip(Exec exec, GLayout const& g, SLayout const& s, DLayout const* dst_layout = nullptr) {
  constexpr int R = std::remove_cvref_t<GLayout>::rank;
  static_assert(R == 2 || R == 3, "tile_round_trip: rank 2 or 3");
  std::int64_t sz[3] = {1, 1, 1}, st[3] = {0, 0, 0}, bx[3] = {1, 1, 1};
  flat_modes(g, sz, st);
  for_modes<R>([&](auto m) { bx[decltype(m)::value] = std::int64_t(size<decltype(m)::value>(s)); });
  std::int64_t const n[3] = {(sz[0] + bx[0] - 1) / bx[0], (sz[1] + bx[1] - 1) / bx[1], (sz[2] + bx[2] - 1) / bx[2]};
  std::int64_t const tiles = n[0] * n[1] * n[2];
  std::int64_t const per_tile = bx[0] * bx[1] * bx[2];

  std::random_device rd;
  std::uint64_t const seed = (std::uint64_t(rd()) << 32) | rd();
  std::mt19937_64 rng(seed);
  std::size_t const span = span_of(g);
  std::vector<T> host = random_elements<T>(span, rng);
  std::size_t dspan = 0;
  std::int64_t dsz[3] = {1, 1, 1}, dst_[3] = {0, 0, 0};
  if (dst_layout != nullptr) {
    dspan = span_of(*dst_layout);
    flat_modes(*dst_layout, dsz, dst_);
  }
  std::vector<T> got(std::size_t(tiles * per_tile));
  std::vector<T> dgot(dspan);

  if (exec == Exec::host_model) {
    std::memset(static_cast<void*>(got.data()), 0xFF, got.size() * sizeof(T));
    std::memset(static_cast<void*>(dgot.data()), 0xFF, dgot.size() * sizeof(T));
    TmaPlan const plan = make_tma_desc(static_cast<T const*>(host.data()), g, s);
    if (!plan.ok) return plan.error;
    TmaPlan dplan;
    if (dst_layout != nullptr) {
      dplan = make_tma_desc(static_cast<T const*>(dgot.data()), *dst_layout, s);
      if (!dplan.ok) return "destination: " + dplan.error;
      if (std::string const why = dplan.store_error(); !why.empty()) return why;
    }
    for (std::int64_t t = 0; t < tiles; ++t)
      emulate_tile<T, R>(plan, dst_layout != nullptr ? &dplan : nullptr, s, sz, bx, t % n[0], (t / n[0]) % n[1],
                         t / (n[0] * n[1]), got.data() + t * per_tile);
  } else {
    DevBuf dsrc, dout, ddst;
    TESSERA_TRY_CUDA(cudaMalloc(&dsrc.p, span * sizeof(T)));
    TESSERA_TRY_CUDA(cudaMemcpy(dsrc.p, host.data(), span * sizeof(T), cudaMemcpyHostToDevice));
    TESSERA_TRY_CUDA(cudaMalloc(&dout.p, std::size_t(tiles * per_tile) * sizeof(T)));
    TESSERA_TRY_CUDA(cudaMemset(dout.p, 0xFF, std::size_t(tiles * per_tile) * sizeof(T)));

    TmaPlan const plan = make_tma_desc(static_cast<T const*>(dsrc.p), g, s);
    if (!plan.ok) return plan.error;
    CUtensorMap tmap;
    if (auto r = tma::encode(&tmap, plan); !r.ok) return r.message;
    if (plan.box_bytes + plan.smem_align > std::uint32_t(kSmemBytes)) return "box does not fit the test's shared memory";

    CUtensorMap store_map = tmap;
    TmaCoordMap store_coords = plan.coord_map();
    if (dst_layout != nullptr) {
      TESSERA_TRY_CUDA(cudaMalloc(&ddst.p, dspan * sizeof(T)));
      TESSERA_TRY_CUDA(cudaMemset(ddst.p, 0xFF, dspan * sizeof(T)));
      TmaPlan const dplan = make_tma_desc(static_cast<T const*>(ddst.p), *dst_layout, s);
      if (std::string const why = dplan.store_error(); !why.empty()) return why;
      if (!dplan.ok) return "destination: " + dplan.error;
      if (auto r = tma::encode(&store_map, dplan); !r.ok) return "destination: " + r.message;
      store_coords = dplan.coord_map();
    }

    auto kernel = tma_tile_kernel<T, R, SLayout>;
    TESSERA_TRY_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
    kernel<<<unsigned(tiles), 128, kSmemBytes>>>(tmap, plan.coord_map(), int(sz[0]), int(sz[1]), int(sz[2]),
                                                 plan.box_bytes, plan.smem_align, static_cast<T*>(dout.p), store_map,
                                                 store_coords, dst_layout != nullptr ? 1 : 0);
    TESSERA_TRY_CUDA(cudaGetLastError());
    TESSERA_TRY_CUDA(cudaDeviceSynchronize());
    TESSERA_TRY_CUDA(cudaMemcpy(got.data(), dout.p, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
    if (dst_layout != nullptr)
      TESSERA_TRY_CUDA(cudaMemcpy(dgot.data(), ddst.p, dspan * sizeof(T), cudaMemcpyDeviceToHost));
  }

  std::ostringstream err;
  int bad = 0;
  std::int64_t zeros = 0;
  for (std::int64_t t = 0; t < tiles; ++t) {
    std::int64_t const t0 = t % n[0], t1 = (t / n[0]) % n[1], t2 = t / (n[0] * n[1]);
    for (std::int64_t i = 0; i < per_tile; ++i) {
      std::int64_t const i0 = i % bx[0], i1 = (i / bx[0]) % bx[1], i2 = i / (bx[0] * bx[1]);
      std::int64_t const m0 = t0 * bx[0] + i0, m1 = t1 * bx[1] + i1, m2 = t2 * bx[2] + i2;
      bool const inside = m0 < sz[0] && m1 < sz[1] && m2 < sz[2];
      std::uint64_t const want = inside ? bits_of(host[std::size_t(m0 * st[0] + m1 * st[1] + m2 * st[2])]) : 0;
      zeros += inside ? 0 : 1;
      std::uint64_t const have = bits_of(got[std::size_t(t * per_tile + i)]);
      if (have != want && ++bad <= 8)
        err << "\n  tile (" << t0 << "," << t1 << "," << t2 << ") element (" << i0 << "," << i1 << "," << i2
            << ") = mode coordinate (" << m0 << "," << m1 << "," << m2 << ")" << (inside ? "" : " [outside]")
            << ": want 0x" << std::hex << want << " got 0x" << have << std::dec;
    }
  }
  if (bad != 0) err << "\n  " << bad << " of " << tiles * per_tile << " loaded elements wrong";

  if (dst_layout != nullptr) {
    std::vector<char> covered(dspan, 0);
    int dbad = 0;
    for (std::int64_t m2 = 0; m2 < dsz[2]; ++m2)
      for (std::int64_t m1 = 0; m1 < dsz[1]; ++m1)
        for (std::int64_t m0 = 0; m0 < dsz[0]; ++m0) {
          std::size_t const di = std::size_t(m0 * dst_[0] + m1 * dst_[1] + m2 * dst_[2]);
          covered[di] = 1;
          std::uint64_t const want = bits_of(host[std::size_t(m0 * st[0] + m1 * st[1] + m2 * st[2])]);
          std::uint64_t const have = bits_of(dgot[di]);
          if (have != want && ++dbad <= 8)
            err << "\n  store: dst (" << m0 << "," << m1 << "," << m2 << "): want 0x" << std::hex << want << " got 0x"
                << have << std::dec;
        }
    // Padding between the rows of dst: the clipped stores must leave it alone.
    std::uint64_t const poison = sizeof(T) == 8 ? ~std::uint64_t(0) : ((std::uint64_t(1) << (8 * sizeof(T))) - 1);
    for (std::size_t i = 0; i < dspan; ++i)
      if (!covered[i] && bits_of(dgot[i]) != poison && ++dbad <= 8)
        err << "\n  store: dst padding element " << i << " was overwritten (0x" << std::hex << bits_of(dgot[i])
            << std::dec << ")";
    if (dbad != 0) err << "\n  " << dbad << " stored elements wrong";
  }
  std::string const e = err.str();
  if (!e.empty()) {
    std::ostringstream o;
    o << "seed " << seed << ", " << tiles << " tiles, " << zeros << " loaded elements outside the tensor:" << e;
    return o.str();
  }
  return "";
}

// The cases, each run on the GPU (TmaTensor.*) and through the host model
// (TmaModel.*, no GPU).
void row_major_bf16_128(Exec x) {
  auto g = make_layout(make_shape(200, 136), make_stride(144, _1{}));  // (M,K), padded ld
  auto s = swizzled<3, 3>(make_shape(_64{}, _64{}), make_stride(_64{}, _1{}));
  EXPECT_EQ(tile_round_trip<bf16>(x, g, s), "");
  // The same box written as 8-row atoms.
  auto s8 = swizzled<3, 3>(make_shape(make_shape(_8{}, _8{}), _64{}), make_stride(make_stride(_64{}, Int<512>{}), _1{}));
  EXPECT_EQ(tile_round_trip<bf16>(x, g, s8), "");
}
void column_major_bf16_128(Exec x) {
  auto g = make_layout(make_shape(150, 100), make_stride(_1{}, 152));  // (M,N) column-major
  auto s = swizzled<3, 3>(make_shape(_64{}, _48{}), make_stride(_1{}, _64{}));
  EXPECT_EQ(tile_round_trip<bf16>(x, g, s), "");
}
void bf16_64_and_32(Exec x) {
  auto g = make_layout(make_shape(99, 70), make_stride(72, _1{}));
  EXPECT_EQ(tile_round_trip<bf16>(x, g, swizzled<2, 3>(make_shape(_40{}, _32{}), make_stride(_32{}, _1{}))), "");
  auto gc = make_layout(make_shape(77, 50), make_stride(_1{}, 80));
  EXPECT_EQ(tile_round_trip<bf16>(x, gc, swizzled<1, 3>(make_shape(_16{}, _24{}), make_stride(_1{}, _16{}))), "");
}
void bf16_unswizzled(Exec x) {
  auto g = make_layout(make_shape(90, 100), make_stride(104, _1{}));
  EXPECT_EQ(tile_round_trip<bf16>(x, g, make_layout(make_shape(_24{}, _40{}), make_stride(_40{}, _1{}))), "");
}
void float32(Exec x) {
  auto g = make_layout(make_shape(70, 90), make_stride(92, _1{}));
  EXPECT_EQ(tile_round_trip<float>(x, g, swizzled<3, 2>(make_shape(_16{}, _32{}), make_stride(_32{}, _1{}))), "");
  auto gc = make_layout(make_shape(45, 33), make_stride(_1{}, 48));
  EXPECT_EQ(tile_round_trip<float>(x, gc, swizzled<2, 2>(make_shape(_16{}, _12{}), make_stride(_1{}, _16{}))), "");
}
void three_dimensional(Exec x) {
  auto g = make_layout(make_shape(50, 72, 3), make_stride(80, _1{}, 4000));  // (M,N,L)
  auto s = swizzled<3, 3>(make_shape(_16{}, _64{}, _2{}), make_stride(_64{}, _1{}, Int<1024>{}));
  EXPECT_EQ(tile_round_trip<bf16>(x, g, s), "");
}
void store_to_another_ld(Exec x) {
  auto src = make_layout(make_shape(130, 96), make_stride(104, _1{}));
  auto dst = make_layout(make_shape(130, 96), make_stride(112, _1{}));
  auto s = swizzled<3, 3>(make_shape(_64{}, _64{}), make_stride(_64{}, _1{}));
  EXPECT_EQ(tile_round_trip<bf16>(x, src, s, &dst), "");
  // Column-major f32 through a 64B-swizzled box, 44 rows (176 bytes per
  // column: stores stay inside, see TmaPlan::store_error).
  auto srcc = make_layout(make_shape(44, 33), make_stride(_1{}, 48));
  auto dstc = make_layout(make_shape(44, 33), make_stride(_1{}, 52));
  EXPECT_EQ(tile_round_trip<float>(x, srcc, swizzled<2, 2>(make_shape(_16{}, _12{}), make_stride(_1{}, _16{})), &dstc), "");
  // 45 rows (180 bytes): run 29 (H100) saw the stores overwrite elements
  // 45-47 of every column; the plan says so before anything is launched.
  auto dst45 = make_layout(make_shape(45, 33), make_stride(_1{}, 52));
  std::string const why = tile_round_trip<float>(
      x, make_layout(make_shape(45, 33), make_stride(_1{}, 48)),
      swizzled<2, 2>(make_shape(_16{}, _12{}), make_stride(_1{}, _16{})), &dst45);
  EXPECT_NE(why.find("whole 16-byte units"), std::string::npos) << why;
}

// The boxes of multicast slices (tma_slice.hpp) are boxes TMA loads as
// they are: a half of a K-major 128x64 tile (rows cut), a quarter of an
// M-major one (K cut), and an eighth of a 256x64 K-major f32-sized one.
void multicast_slice_boxes(Exec x) {
  using KBox = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bf16>{}, Shape<_128, _64>{}));
  using MBox = decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<bf16>{}, Shape<_64, _64>{}));
  using FBox = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<float>{}, Shape<_256, _32>{}));
  EXPECT_EQ(tile_round_trip<bf16>(x, make_layout(make_shape(200, 136), make_stride(144, _1{})),
                                  tma_slice_layout_t<KBox, 2>{}),
            "");
  EXPECT_EQ(tile_round_trip<bf16>(x, make_layout(make_shape(150, 100), make_stride(_1{}, 152)),
                                  tma_slice_layout_t<MBox, 4>{}),
            "");
  EXPECT_EQ(tile_round_trip<float>(x, make_layout(make_shape(70, 90), make_stride(92, _1{})),
                                   tma_slice_layout_t<FBox, 8>{}),
            "");
}

// The host model: the descriptor make_tma_desc derives, used the way TMA
// uses it, delivers each tile to where the smem layout says (no GPU).
TEST(TmaModel, RowMajorBf16Swizzle128) { row_major_bf16_128(Exec::host_model); }
TEST(TmaModel, ColumnMajorBf16Swizzle128) { column_major_bf16_128(Exec::host_model); }
TEST(TmaModel, Bf16Swizzle64And32) { bf16_64_and_32(Exec::host_model); }
TEST(TmaModel, Bf16Unswizzled) { bf16_unswizzled(Exec::host_model); }
TEST(TmaModel, Float32) { float32(Exec::host_model); }
TEST(TmaModel, ThreeDimensional) { three_dimensional(Exec::host_model); }
TEST(TmaModel, StoreToAnotherLeadingDimension) { store_to_another_ld(Exec::host_model); }
TEST(TmaModel, MulticastSliceBoxes) { multicast_slice_boxes(Exec::host_model); }

TEST(TmaTensor, RowMajorBf16Swizzle128) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  row_major_bf16_128(Exec::gpu);
}
TEST(TmaTensor, ColumnMajorBf16Swizzle128) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  column_major_bf16_128(Exec::gpu);
}
TEST(TmaTensor, Bf16Swizzle64And32) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  bf16_64_and_32(Exec::gpu);
}
TEST(TmaTensor, Bf16Unswizzled) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  bf16_unswizzled(Exec::gpu);
}
TEST(TmaTensor, Float32) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  float32(Exec::gpu);
}
TEST(TmaTensor, ThreeDimensional) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  three_dimensional(Exec::gpu);
}
TEST(TmaTensor, StoreToAnotherLeadingDimension) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  store_to_another_ld(Exec::gpu);
}
TEST(TmaTensor, MulticastSliceBoxes) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  multicast_slice_boxes(Exec::gpu);
}

}  // namespace
