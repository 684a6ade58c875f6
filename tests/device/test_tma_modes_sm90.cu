// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// TMA copies of global tensors whose modes are nested (make_tma_desc's
// flattening, tessera/tma/make_tma_desc.hpp) and of a map whose global
// strides decrease along the TMA dimensions:
//   TmaModes.RoundTripTwoSlabs        bf16 (M,K) row-major whose M is two
//       slabs of 64 rows with a gap, ((2,64),256):((G,lda),1); tiles of
//       ((2,32),64): three TMA dimensions, nothing merged (run-time strides).
//   TmaModes.RoundTripMergedColumnMajor  f32 ((8,16),96):((1,8),136): the
//       static inner sub-modes merge into one dimension (rank 2).
//   TmaModes.RoundTripDecreasingStrides  bf16 rank 4 (40,3,4,5), mode 0
//       contiguous, the strides of modes 1, 2, 3 decreasing (960, 240, 48):
//       TMA dimensions 1-3 in decreasing stride order, edge boxes clipped.
//   TmaModes.ReduceAddTwoSlabs        SM90_TMA_REDUCE_ADD of the two-slab
//       f32 tensor onto a random one: old + box, one f32 rounding.
//   TmaModes.MulticastSlicesTwoSlabs  SM90_TMA_LOAD_MULTICAST of the
//       two-slab bf16 tensor in clusters of 2: the ((2,32),64) box cut into
//       two ((2,16),64) slices (its slowest sub-mode halved), each CTA of the
//       cluster loads its slice through the slices' nested map (CuTe's
//       tma_partition with a cluster layout of 2) and multicasts it to both;
//       both CTAs' shared memory must hold the whole box.
// Each round trip: every tile of a fresh random tensor prefetched and loaded
// (coordinate form and CuTe's partitioned form), copied out of shared memory
// through the box layout and compared with the host's copy (0 past the
// edges), then stored with a TMA store into a second tensor of other strides
// filled with 0xFF bytes first: every element must be the input's, the
// padding and gaps still 0xFF.
// Skips (loudly) unless the device is sm_90.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::upload;

constexpr int kSmemBytes = 9216;  // boxes up to 8 KiB here; the rest is alignment slack

struct Tiles {
  int n[4] = {1, 1, 1, 1};  // tiles along each top-level mode
};

__device__ inline unsigned char* aligned_1024(unsigned char* raw) {
  return raw + ((1024u - (cast_smem_ptr_to_uint(raw) & 1023u)) & 1023u);
}

template <int R>
__host__ __device__ auto tile_coord(int t, Tiles const& tiles) {
  int c[4] = {0, 0, 0, 0};
  for (int m = 0; m < R; ++m) {
    c[m] = t % tiles.n[m];
    t /= tiles.n[m];
  }
  return [&]<int... I>(seq<I...>) { return make_coord(c[I]...); }(make_seq<R>{});
}

// One CTA per tile: prefetch and load tile blockIdx.x, copy it out through
// the box layout (out[blockIdx.x][k] = sX(k)), store it with `store` at the
// same coordinates.
template <class LoadTma, class StoreTma, class Box, class GShape, bool kPartitioned>
__global__ void __launch_bounds__(128, 1)
    round_trip_kernel(__grid_constant__ const LoadTma load, __grid_constant__ const StoreTma store, GShape gshape,
                      Tiles tiles, typename LoadTma::value_type* out) {
  using T = typename LoadTma::value_type;
  constexpr int R = decltype(rank(Box{}))::value;
  constexpr int kElems = int(decltype(size(Box{}))::value);
  __shared__ __align__(1024) unsigned char smem_raw[kSmemBytes];
  __shared__ __align__(8) std::uint64_t mbar;
  unsigned char* const base = aligned_1024(smem_raw);
  Tensor sX = make_tensor(make_smem_ptr(reinterpret_cast<T*>(base)), Box{});  // (B0,...)
  for (int i = int(threadIdx.x); i < kElems * int(sizeof(T)); i += int(blockDim.x)) base[i] = 0xA5;
  arch::fence_proxy_async_shared_cta();
  if (threadIdx.x == 0) {
    mbarrier_init(&mbar, 1);
    arch::fence_mbarrier_init();
  }
  __syncthreads();
  auto const box_shape = product_each(shape(Box{}));
  auto const t = tile_coord<R>(int(blockIdx.x), tiles);
  Tensor gX = local_tile(load.get_tma_tensor(gshape), box_shape, t);  // (B0,...) -> hierarchical coordinates
  if (threadIdx.x == 0) {
    prefetch_tma_descriptor(load.get_tma_descriptor());
    mbarrier_arrive_expect_tx(&mbar, load.box_bytes());
    if constexpr (kPartitioned) {
      auto [tXgX, tXsX] = tma_partition(load, Int<0>{}, Layout<_1>{}, group_modes<0, R>(sX), group_modes<0, R>(gX));
      prefetch(load, tXgX);
      copy(load.with(mbar), tXgX, tXsX);
    } else {
      auto const x0 = [&]<int... I>(seq<I...>) { return gX((I * 0)...); }(make_seq<R>{});
      prefetch(load, x0);
      copy(load.with(mbar), x0, sX);
    }
  }
  mbarrier_wait(&mbar, 0);
  T* const dst = out + std::size_t(blockIdx.x) * kElems;
  for (int k = int(threadIdx.x); k < kElems; k += int(blockDim.x)) dst[k] = sX(k);
  __syncthreads();
  if (threadIdx.x == 0) {
    if constexpr (kPartitioned) {
      Tensor gY = local_tile(store.get_tma_tensor(gshape), box_shape, t);
      auto cta = store.get_slice(Int<0>{});
      copy(store, cta.partition_S(sX), cta.partition_D(gY));
    } else {
      copy(store, sX, [&]<int... I>(seq<I...>) { return gX((I * 0)...); }(make_seq<R>{}));
    }
    tma_store_arrive();
    tma_store_wait<0>();
  }
  __syncthreads();
  if (threadIdx.x == 0) arch::mbarrier_inval(&mbar);
}

template <class T>
bool same_bits(T const& a, T const& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Element (i0, ..., iR-1) (one integer per top-level mode) of a layout, and
// whether it lies inside.
template <class L, class F>
void for_each_element(L const& l, F&& f) {
  constexpr int R = decltype(rank(l))::value;
  int e[4] = {1, 1, 1, 1};
  [&]<int... I>(seq<I...>) { ((e[I] = int(size<I>(l))), ...); }(make_seq<R>{});
  for (int i3 = 0; i3 < e[3]; ++i3)
    for (int i2 = 0; i2 < e[2]; ++i2)
      for (int i1 = 0; i1 < e[1]; ++i1)
        for (int i0 = 0; i0 < e[0]; ++i0) f(i0, i1, i2, i3);
}
template <class L>
std::int64_t at(L const& l, int i0, int i1, int i2, int i3) {
  constexpr int R = decltype(rank(l))::value;
  int const i[4] = {i0, i1, i2, i3};
  return [&]<int... I>(seq<I...>) { return std::int64_t(l(i[I]...)); }(make_seq<R>{});
}

// `src` cut into Box tiles: tiles.n[m] of them along mode m, ext[m] the box's
// extent there and sz[m] the tensor's; count tiles in all.
struct BoxGrid {
  Tiles tiles;
  int ext[4] = {1, 1, 1, 1}, sz[4] = {1, 1, 1, 1};
  int count = 1;
};
template <class Box, class SrcL>
BoxGrid box_grid(SrcL const& src) {
  constexpr int R = decltype(rank(src))::value;
  BoxGrid g;
  [&]<int... I>(seq<I...>) {
    ((g.tiles.n[I] = (int(size<I>(src)) + int(size<I>(Box{})) - 1) / int(size<I>(Box{})),
      g.ext[I] = int(size<I>(Box{})), g.sz[I] = int(size<I>(src))),
     ...);
  }(make_seq<R>{});
  for (int m = 0; m < R; ++m) g.count *= g.tiles.n[m];
  return g;
}

// Compares the loaded boxes `out` (box q at q * size(Box), `copies`
// consecutive boxes per tile, tiles in colexicographic order) bit for bit
// with the host's: element k of a tile's box is x at the tile's element k, 0
// past the edges. Reports the first 6 mismatches, naming box q by where(q),
// and returns how many there are.
template <class Box, class T, class SrcL, class Where>
long long count_box_mismatches(SrcL const& src, std::vector<T> const& x, BoxGrid const& g, std::vector<T> const& out,
                               int copies, Where&& where) {
  constexpr int R = decltype(rank(src))::value;
  constexpr int kElems = int(decltype(size(Box{}))::value);
  long long wrong = 0;
  for (int q = 0; q < g.count * copies; ++q) {
    int tc[4] = {0, 0, 0, 0};
    for (int m = 0, r = q / copies; m < R; ++m) {
      tc[m] = r % g.tiles.n[m];
      r /= g.tiles.n[m];
    }
    for (int k = 0; k < kElems; ++k) {
      int c[4] = {0, 0, 0, 0};
      bool in = true;
      for (int m = 0, r = k; m < R; ++m) {
        c[m] = tc[m] * g.ext[m] + r % g.ext[m];
        r /= g.ext[m];
        in = in && c[m] < g.sz[m];
      }
      T const want = in ? x[std::size_t(at(src, c[0], c[1], c[2], c[3]))] : T(0.0f);
      T const have = out[std::size_t(q) * kElems + std::size_t(k)];
      if (!same_bits(have, want) && ++wrong <= 6)
        ADD_FAILURE() << where(q) << " element " << k << " (" << c[0] << "," << c[1] << "," << c[2] << "," << c[3]
                      << (in ? "" : ", past the edge") << "): got " << float(have) << ", expected " << float(want);
    }
  }
  return wrong;
}

// Loads every tile of `src` (fresh random) and stores (or, kAdd, adds) it
// into `dst` (0xFF bytes first, or random for kAdd); checks both.
template <class T, class Box, bool kPartitioned, bool kAdd = false, class SrcL, class DstL>
void round_trip(SrcL const& src, DstL const& dst) {
  constexpr int kElems = int(decltype(size(Box{}))::value);
  std::size_t const sspan = std::size_t(cosize(src)), dspan = std::size_t(cosize(dst)) + 64;
  std::vector<T> const x = fresh_random<T>(sspan);
  std::vector<T> init(dspan);
  if constexpr (kAdd) init = fresh_random<T>(dspan);
  else std::memset(static_cast<void*>(init.data()), 0xFF, dspan * sizeof(T));
  DevBuf dx, dd, dout;
  ASSERT_NO_FATAL_FAILURE(upload(dx, x));
  ASSERT_NO_FATAL_FAILURE(upload(dd, init));
  auto load = make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr(dx.as<T>()), src), Box{});
  ASSERT_TRUE(load.ok()) << load.error();
  using StoreOp = std::conditional_t<kAdd, SM90_TMA_REDUCE_ADD, SM90_TMA_STORE>;
  auto store = make_tma_copy(StoreOp{}, make_tensor(make_gmem_ptr(dd.as<T>()), dst), Box{});
  ASSERT_TRUE(store.ok()) << store.error();
  BoxGrid const g = box_grid<Box>(src);
  std::size_t const out_elems = std::size_t(g.count) * kElems;
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, out_elems * sizeof(T)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, out_elems * sizeof(T)));
  round_trip_kernel<decltype(load), decltype(store), Box, decltype(shape(src)), kPartitioned>
      <<<g.count, 128>>>(load, store, shape(src), g.tiles, dout.as<T>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<T> out(out_elems), got(dspan);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), dout.p, out_elems * sizeof(T), cudaMemcpyDeviceToHost));
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dd.p, dspan * sizeof(T), cudaMemcpyDeviceToHost));

  long long wrong =
      count_box_mismatches<Box>(src, x, g, out, 1, [](int t) { return "load: tile " + std::to_string(t); });
  std::vector<char> covered(dspan, 0);
  for_each_element(src, [&](int i0, int i1, int i2, int i3) {
    std::size_t const di = std::size_t(at(dst, i0, i1, i2, i3));
    T const xv = x[std::size_t(at(src, i0, i1, i2, i3))];
    T const want = kAdd ? T(float(init[di]) + float(xv)) : xv;
    covered[di] = 1;
    if (!same_bits(got[di], want) && ++wrong <= 12)
      ADD_FAILURE() << "store: element (" << i0 << "," << i1 << "," << i2 << "," << i3 << ") = " << float(got[di])
                    << ", expected " << float(want);
  });
  for (std::size_t i = 0; i < dspan; ++i)
    if (!covered[i] && !same_bits(got[i], init[i]) && ++wrong <= 18)
      ADD_FAILURE() << "store: element " << i << " of the destination, outside the tensor, was overwritten";
  EXPECT_EQ(wrong, 0);
}

template <class T, class Box, bool kAdd = false, class SrcL, class DstL>
void round_trip_both_forms(SrcL const& src, DstL const& dst) {
  {
    SCOPED_TRACE("coordinate form");
    round_trip<T, Box, false, kAdd>(src, dst);
  }
  {
    SCOPED_TRACE("partitioned form");
    round_trip<T, Box, true, kAdd>(src, dst);
  }
}

// ((2,64),256):((G,lda),1): two slabs of 64 rows, a gap between them. The
// sub-mode sizes are static (so local_tile of the coordinate tensor has the
// box's static shape, which the partitioned form needs); the strides are
// run-time, so nothing merges.
auto two_slabs(int lda, int gap) {
  return make_layout(make_shape(make_shape(_2{}, _64{}), 256), make_stride(make_stride(64 * lda + gap, lda), _1{}));
}
// Tiles of (2 x 32 rows, 64 columns), packed k, then m0, then m1.
using BoxSlabs = Layout<Shape<Shape<_2, _32>, _64>, Stride<Stride<_64, Int<128>>, _1>>;

TEST(TmaModes, RoundTripTwoSlabs) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  auto const src = two_slabs(264, 512);
  auto const dst = two_slabs(272, 256);
  auto plan = make_tma_desc(reinterpret_cast<bfloat16_t const*>(std::uintptr_t(1024)), src, BoxSlabs{});
  ASSERT_TRUE(plan.ok) << plan.error;
  ASSERT_EQ(plan.rank, 3);
  round_trip_both_forms<bfloat16_t, BoxSlabs>(src, dst);
}

TEST(TmaModes, RoundTripMergedColumnMajor) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  auto const src = make_layout(make_shape(make_shape(_8{}, _16{}), 96), make_stride(make_stride(_1{}, _8{}), 136));
  auto const dst = make_layout(make_shape(make_shape(_8{}, _16{}), 96), make_stride(make_stride(_1{}, _8{}), 144));
  using Box = Layout<Shape<_32, _8>, Stride<_1, _32>>;
  static_assert(detail::tma_leaf_plan<decltype(src), Box>().rank == 2, "the inner sub-modes merge");
  round_trip_both_forms<float, Box>(src, dst);
}

TEST(TmaModes, RoundTripDecreasingStrides) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  // (40,3,4,5) bf16, mode 0 contiguous (rows of 48), then mode 3 (stride 48),
  // mode 2 (240), mode 1 (960): TMA dimensions 1, 2, 3 in decreasing stride order.
  auto const src = make_layout(make_shape(40, 3, 4, 5), make_stride(_1{}, 960, 240, 48));
  auto const dst = make_layout(make_shape(40, 3, 4, 5), make_stride(_1{}, 1120, 280, 56));
  using Box = Layout<Shape<_16, _2, _2, _2>, Stride<_1, _16, _32, _64>>;
  round_trip_both_forms<bfloat16_t, Box>(src, dst);
}

TEST(TmaModes, ReduceAddTwoSlabs) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  auto const src = two_slabs(264, 512);
  auto const dst = two_slabs(260, 128);
  using Box = Layout<Shape<Shape<_2, _32>, _32>, Stride<Stride<_32, _64>, _1>>;
  round_trip_both_forms<float, Box, true>(src, dst);
}

// Cluster c (N CTAs) loads tile c of the tensor: each CTA its slice of the
// box (tma_partition with a cluster layout of N), multicast to all N, then
// copies the whole box it received out through the box layout
// (out[blockIdx.x][k] = sX(k)).
template <class LoadTma, class Box, class GShape, int N>
__global__ void __launch_bounds__(128, 1)
    multicast_slices_kernel(__grid_constant__ const LoadTma load, GShape gshape, Tiles tiles,
                            typename LoadTma::value_type* out) {
  using T = typename LoadTma::value_type;
  constexpr int R = decltype(rank(Box{}))::value;
  constexpr int kElems = int(decltype(size(Box{}))::value);
  __shared__ __align__(1024) unsigned char smem_raw[kSmemBytes];
  __shared__ __align__(8) std::uint64_t mbar;
  unsigned char* const base = aligned_1024(smem_raw);  // the same offset in every CTA of the cluster
  Tensor sX = make_tensor(make_smem_ptr(reinterpret_cast<T*>(base)), Box{});  // (B0,...)
  for (int i = int(threadIdx.x); i < kElems * int(sizeof(T)); i += int(blockDim.x)) base[i] = 0xA5;
  arch::fence_proxy_async_shared_cta();
  if (threadIdx.x == 0) {
    mbarrier_init(&mbar, 1);
    arch::fence_mbarrier_init();
  }
  cluster_sync();  // every CTA's barrier initialised before a peer's slice lands
  int const tile = int(blockIdx.x) / N;
  Tensor gX = local_tile(load.get_tma_tensor(gshape), product_each(shape(Box{})), tile_coord<R>(tile, tiles));
  if (threadIdx.x == 0) {
    std::uint32_t const rank = block_rank_in_cluster();
    mbarrier_arrive_expect_tx(&mbar, load.box_bytes());  // all N slices land here
    auto [tXgX, tXsX] = tma_partition(load, rank, Layout<Int<N>>{}, group_modes<0, R>(sX), group_modes<0, R>(gX));
    copy(load.with(mbar, std::uint16_t((1u << N) - 1)), tXgX, tXsX);
  }
  mbarrier_wait(&mbar, 0);
  T* const dst = out + std::size_t(blockIdx.x) * kElems;
  for (int k = int(threadIdx.x); k < kElems; k += int(blockDim.x)) dst[k] = sX(k);
  cluster_sync();  // no CTA leaves while its slice may still be landing in a peer
}

// Every tile of a fresh random `src` loaded by a cluster of N in multicast
// slices; each of the N copies of every tile compared bit for bit with the
// host's tile (0 past the edges).
template <class T, class Box, int N, class SrcL>
void multicast_slices(SrcL const& src) {
  constexpr int kElems = int(decltype(size(Box{}))::value);
  std::vector<T> const x = fresh_random<T>(std::size_t(cosize(src)));
  DevBuf dx, dout;
  ASSERT_NO_FATAL_FAILURE(upload(dx, x));
  auto load = make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, make_tensor(make_gmem_ptr(dx.as<T>()), src), Box{}, Int<N>{});
  ASSERT_TRUE(load.ok()) << load.error();
  static_assert(decltype(load)::slices() == N, "the box cuts into one slice per CTA of the cluster");
  ASSERT_TRUE(load.slices_ok()) << load.slice_error();
  BoxGrid const g = box_grid<Box>(src);
  int const n = g.count;
  std::size_t const out_elems = std::size_t(n) * N * kElems;
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, out_elems * sizeof(T)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, out_elems * sizeof(T)));
  arch::ClusterLaunch l;
  l.grid = dim3(unsigned(n * N));
  l.block = dim3(128);
  l.cluster = dim3(unsigned(N), 1, 1);
  TESSERA_TEST_CUDA(arch::launch_cluster(multicast_slices_kernel<decltype(load), Box, decltype(shape(src)), N>, l, load,
                                         shape(src), g.tiles, dout.as<T>()));
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<T> out(out_elems);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), dout.p, out_elems * sizeof(T), cudaMemcpyDeviceToHost));

  long long const wrong = count_box_mismatches<Box>(src, x, g, out, N, [](int q) {
    return "CTA " + std::to_string(q) + " (rank " + std::to_string(q % N) + " of tile " + std::to_string(q / N) + ")";
  });
  EXPECT_EQ(wrong, 0);
}

TEST(TmaModes, MulticastSlicesTwoSlabs) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  auto const src = two_slabs(264, 512);
  // Slice t of a ((2,32),64) box: rows [16t, 16t + 16) of both slabs' 32, all
  // 64 columns; the slices' map keeps the box's three TMA dimensions.
  auto slice_plan =
      make_tma_desc(reinterpret_cast<bfloat16_t const*>(std::uintptr_t(1024)), src, tma_slice_layout_t<BoxSlabs, 2>{});
  ASSERT_TRUE(slice_plan.ok) << slice_plan.error;
  ASSERT_EQ(slice_plan.rank, 3);
  multicast_slices<bfloat16_t, BoxSlabs, 2>(src);
}

}  // namespace
