// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// TMA maps of every rank TMA has, 1 to 5 (make_tma_copy and copy() under
// CuTe's names; arch::tma_load / tma_store / tma_load_multicast /
// tma_reduce_add / tma_prefetch underneath):
//   TmaRank.RoundTripRank{1,4,5}   every box of a fresh random tensor loaded
//       (after an L2 prefetch of it) and compared with the host's copy, the
//       elements past the edges reading 0; then each box stored back with a
//       TMA store into a second tensor of other strides, filled with 0xFF
//       bytes (NaN) first: every element of that tensor must be the input's,
//       its padding and the bytes past its end still 0xFF. Coordinate form
//       (copy(tma.with(mbar), make_coord(...), sX)) and partitioned form
//       (tma_partition for the load, get_slice(0).partition_S/D for the
//       store). Rank 1: bf16; rank 4: bf16, the contiguous mode inside the
//       mode order, 32B swizzle; rank 5: f32, the contiguous mode last.
//   TmaRank.MulticastRank4         a rank-4 box in clusters of 2: CTA 0
//       multicasts the whole box to both, and (CuTe's slices) each CTA loads
//       half of it through tma_partition and multicasts that; both CTAs must
//       hold the box.
//   TmaRank.ReduceAddRank5         SM90_TMA_REDUCE_ADD of random f32 boxes
//       onto a random rank-5 tensor, boxes clipped at the edges: covered
//       elements are old + box (fp64 reference, one rounding), the rest
//       untouched bit for bit.
//   TmaRank.PlansOfTheCases and TmaRank.EncodeRefusesRanksOutside1To5 (no
//       GPU needed): the cases' maps pass make_tma_desc; tma::encode_tiled
//       refuses ranks 0 and 6 and element strides outside [1, 8] before
//       asking the driver.
// Skips (loudly) unless the device is sm_90.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::upload;

constexpr int kSmemBytes = 4096;  // every box here is at most 512 bytes; the rest is alignment slack

// Extents of a tensor (or a box) of rank up to 5, mode 0 first; 1 past the
// rank (spell all five in an initializer: omitted ones would be 0).
struct Extents {
  int v[5] = {1, 1, 1, 1, 1};
};

template <class Box>
constexpr Extents box_extents() {
  Extents b;
  constexpr int R = decltype(rank(Box{}))::value;
  [&]<int... I>(seq<I...>) { ((b.v[I] = int(decltype(size<I>(Box{}))::value)), ...); }(make_seq<R>{});
  return b;
}

// Tile t of a tensor of extents `e` cut into boxes of extents `b` (mode 0
// fastest): its coordinate along each mode (in boxes).
__host__ __device__ inline Extents tile_coord(int t, Extents const& e, Extents const& b) {
  Extents c;
  for (int m = 0; m < 5; ++m) {
    int const n = (e.v[m] + b.v[m] - 1) / b.v[m];
    c.v[m] = t % n;
    t /= n;
  }
  return c;
}

__host__ __device__ inline int tile_count(Extents const& e, Extents const& b) {
  int n = 1;
  for (int m = 0; m < 5; ++m) n *= (e.v[m] + b.v[m] - 1) / b.v[m];
  return n;
}

template <int R>
__host__ __device__ auto shape_of(Extents const& e) {
  return [&]<int... I>(seq<I...>) { return make_shape(e.v[I]...); }(make_seq<R>{});
}
template <int R>
__host__ __device__ auto coord_of(Extents const& c) {
  return [&]<int... I>(seq<I...>) { return make_coord(c.v[I]...); }(make_seq<R>{});
}

// The first 1024-byte boundary of the block's shared buffer.
__device__ inline unsigned char* aligned_1024(unsigned char* raw) {
  return raw + ((1024u - (cast_smem_ptr_to_uint(raw) & 1023u)) & 1023u);
}

// Poisons the box in shared memory (a load that writes nothing must not
// pass), makes that visible to the TMA unit, and has thread 0 initialise the
// mbarrier for one arrival. The caller synchronises (CTA or cluster).
__device__ void poison_box_and_init(unsigned char* box, int bytes, std::uint64_t& mbar) {
  for (int i = int(threadIdx.x); i < bytes; i += int(blockDim.x)) box[i] = 0xA5;
  arch::fence_proxy_async_shared_cta();
  if (threadIdx.x == 0) {
    mbarrier_init(&mbar, 1);
    arch::fence_mbarrier_init();
  }
}

// One CTA per box of the tensor: prefetch and load box blockIdx.x, copy it
// out through the box's layout (out[blockIdx.x][k] = sX(k), k the box's
// colexicographic index), then store the box with `store` at the same mode
// coordinates.
template <class LoadTma, class StoreTma, class Box, bool kPartitioned>
__global__ void __launch_bounds__(128, 1)
    round_trip_kernel(__grid_constant__ const LoadTma load, __grid_constant__ const StoreTma store, Extents ext,
                      typename LoadTma::value_type* out) {
  using T = typename LoadTma::value_type;
  constexpr int R = decltype(rank(Box{}))::value;
  constexpr Extents kBox = box_extents<Box>();
  constexpr int kElems = int(decltype(size(Box{}))::value);
  __shared__ __align__(1024) unsigned char smem_raw[kSmemBytes];
  __shared__ __align__(8) std::uint64_t mbar;
  unsigned char* const base = aligned_1024(smem_raw);
  Tensor sX = make_tensor(make_smem_ptr(reinterpret_cast<T*>(base)), Box{});  // (B0,...,BR-1)
  poison_box_and_init(base, kElems * int(sizeof(T)), mbar);
  __syncthreads();

  Extents const t = tile_coord(int(blockIdx.x), ext, kBox);
  Extents o;
  for (int m = 0; m < 5; ++m) o.v[m] = t.v[m] * kBox.v[m];
  auto const box_shape = product_each(shape(Box{}));
  if (threadIdx.x == 0) {
    prefetch_tma_descriptor(load.get_tma_descriptor());
    mbarrier_arrive_expect_tx(&mbar, load.box_bytes());
    if constexpr (kPartitioned) {
      Tensor gX = local_tile(load.get_tma_tensor(shape_of<R>(ext)), box_shape, coord_of<R>(t));  // (B0,...,BR-1)
      auto [tXgX, tXsX] = tma_partition(load, Int<0>{}, Layout<_1>{}, group_modes<0, R>(sX), group_modes<0, R>(gX));
      prefetch(load, tXgX);  // a hint: the loaded data must not change
      copy(load.with(mbar), tXgX, tXsX);
    } else {
      prefetch(load, coord_of<R>(o));
      copy(load.with(mbar), coord_of<R>(o), sX);
    }
  }
  mbarrier_wait(&mbar, 0);
  T* const dst = out + std::size_t(blockIdx.x) * kElems;
  for (int k = int(threadIdx.x); k < kElems; k += int(blockDim.x)) dst[k] = sX(k);
  __syncthreads();
  if (threadIdx.x == 0) {
    if constexpr (kPartitioned) {
      Tensor gY = local_tile(store.get_tma_tensor(shape_of<R>(ext)), box_shape, coord_of<R>(t));  // (B0,...,BR-1)
      auto cta = store.get_slice(Int<0>{});
      copy(store, cta.partition_S(sX), cta.partition_D(gY));
    } else {
      copy(store, sX, coord_of<R>(o));
    }
    tma_store_arrive();
    tma_store_wait<0>();
  }
  __syncthreads();
  if (threadIdx.x == 0) arch::mbarrier_inval(&mbar);
}

// A rank-R tensor: extents and element strides.
template <int R>
struct GmemTensor {
  Extents e;
  std::int64_t st[R];
  auto layout() const {
    return [&]<int... I>(seq<I...>) { return make_layout(make_shape(e.v[I]...), make_stride(st[I]...)); }(
        make_seq<R>{});
  }
  std::size_t span() const {
    std::int64_t s = 1;
    for (int m = 0; m < R; ++m) s += std::int64_t(e.v[m] - 1) * st[m];
    return std::size_t(s);
  }
  std::int64_t offset(Extents const& c) const {
    std::int64_t o = 0;
    for (int m = 0; m < R; ++m) o += std::int64_t(c.v[m]) * st[m];
    return o;
  }
  bool inside(Extents const& c) const {
    for (int m = 0; m < R; ++m)
      if (c.v[m] >= e.v[m]) return false;
    return true;
  }
};

// Box coordinate of colexicographic index k.
inline Extents box_coord(int k, Extents const& b) {
  Extents c;
  for (int m = 0; m < 5; ++m) {
    c.v[m] = k % b.v[m];
    k /= b.v[m];
  }
  return c;
}

template <class T>
bool same_bits(T const& a, T const& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Loads every box of `src` (fresh random) and stores it into `dst` (0xFF
// bytes first, 64 more elements past its end), in one form; checks both.
template <class T, class Box, bool kPartitioned, int R>
void round_trip(GmemTensor<R> const& src, GmemTensor<R> const& dst) {
  constexpr Extents kBox = box_extents<Box>();
  constexpr int kElems = int(decltype(size(Box{}))::value);
  std::size_t const dspan = dst.span() + 64;
  std::vector<T> const x = fresh_random<T>(src.span());
  std::vector<T> poison(dspan);
  std::memset(static_cast<void*>(poison.data()), 0xFF, dspan * sizeof(T));
  DevBuf dx, dd, dout;
  ASSERT_NO_FATAL_FAILURE(upload(dx, x));
  ASSERT_NO_FATAL_FAILURE(upload(dd, poison));
  auto load = make_tma_copy(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr(dx.as<T>()), src.layout()), Box{});
  ASSERT_TRUE(load.ok()) << load.error();
  static_assert(decltype(load)::kRank == R && decltype(load)::kBoxes == 1);
  EXPECT_EQ(load.box_bytes(), std::uint32_t(kElems * sizeof(T)));
  auto store = make_tma_copy(SM90_TMA_STORE{}, make_tensor(make_gmem_ptr(dd.as<T>()), dst.layout()), Box{});
  ASSERT_TRUE(store.ok()) << store.error();
  int const tiles = tile_count(src.e, kBox);
  std::size_t const out_elems = std::size_t(tiles) * kElems;
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, out_elems * sizeof(T)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, out_elems * sizeof(T)));
  round_trip_kernel<decltype(load), decltype(store), Box, kPartitioned>
      <<<tiles, 128>>>(load, store, src.e, dout.as<T>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<T> out(out_elems), got(dspan);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), dout.p, out_elems * sizeof(T), cudaMemcpyDeviceToHost));
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dd.p, dspan * sizeof(T), cudaMemcpyDeviceToHost));

  long long wrong = 0, zeros = 0;
  T const zero = T(0.0f);
  for (int t = 0; t < tiles; ++t) {
    Extents const tc = tile_coord(t, src.e, kBox);
    for (int k = 0; k < kElems; ++k) {
      Extents c = box_coord(k, kBox);
      for (int m = 0; m < R; ++m) c.v[m] += tc.v[m] * kBox.v[m];
      bool const in = src.inside(c);
      zeros += in ? 0 : 1;
      T const want = in ? x[std::size_t(src.offset(c))] : zero;
      T const have = out[std::size_t(t) * kElems + std::size_t(k)];
      if (!same_bits(have, want) && ++wrong <= 6)
        ADD_FAILURE() << "load: box " << t << " element " << k << " (mode coordinate " << c.v[0] << "," << c.v[1]
                      << "," << c.v[2] << "," << c.v[3] << "," << c.v[4] << (in ? "" : ", past the edge")
                      << "): got " << float(have) << ", expected " << float(want);
    }
  }
  EXPECT_GT(zeros, 0) << "the case should have boxes reaching past the tensor's edges";
  std::vector<char> covered(dspan, 0);
  int const elems = tile_count(src.e, Extents{});  // every element of the tensor
  for (int i = 0; i < elems; ++i) {
    Extents const c = tile_coord(i, src.e, Extents{});
    std::size_t const di = std::size_t(dst.offset(c));
    covered[di] = 1;
    if (!same_bits(got[di], x[std::size_t(src.offset(c))]) && ++wrong <= 12)
      ADD_FAILURE() << "store: element (" << c.v[0] << "," << c.v[1] << "," << c.v[2] << "," << c.v[3] << ","
                    << c.v[4] << ") = " << float(got[di]) << ", expected " << float(x[std::size_t(src.offset(c))]);
  }
  for (std::size_t i = 0; i < dspan; ++i)
    if (!covered[i] && !same_bits(got[i], poison[i]) && ++wrong <= 18)
      ADD_FAILURE() << "store: element " << i << " of the destination, outside the tensor, was overwritten";
  EXPECT_EQ(wrong, 0);
}

// Rank 1: 1000 bf16, boxes of 128 (the last one 104 long); the destination
// has 64 poisoned elements past its end, where the clipped store must not
// write.
using Box1 = Layout<Shape<_128>, Stride<_1>>;
GmemTensor<1> const kSrc1{{{1000, 1, 1, 1, 1}}, {1}};
GmemTensor<1> const kDst1{{{1000, 1, 1, 1, 1}}, {1}};

// Rank 4: (A, B, C, D) = (7, 40, 6, 3) bf16, B contiguous; boxes (2, 16, 4,
// 2) packed B, A, C, D with the 32B swizzle (rows of 16 bf16).
using Box4 = decltype(make_composed_layout(Swizzle<1, 3, 3>{}, _0{},
                                           Layout<Shape<_2, _16, _4, _2>, Stride<_16, _1, _32, Int<128>>>{}));
GmemTensor<4> const kSrc4{{{7, 40, 6, 3, 1}}, {48, 1, 344, 2080}};
GmemTensor<4> const kDst4{{{7, 40, 6, 3, 1}}, {56, 1, 392, 2360}};

// Rank 5: (3, 4, 5, 6, 36) f32, mode 4 contiguous; boxes (1, 2, 3, 2, 8).
using Box5 = Layout<Shape<_1, _2, _3, _2, _8>, Stride<_8, _8, _16, _48, _1>>;
GmemTensor<5> const kSrc5{{{3, 4, 5, 6, 36}}, {40, 120, 480, 2400, 1}};
GmemTensor<5> const kDst5{{{3, 4, 5, 6, 36}}, {44, 132, 532, 2660, 1}};

// Both forms of the round trip: TMA coordinates, and CuTe's partitioned tensors.
template <class T, class Box, class Src, class Dst>
void round_trip_both_forms(Src const& src, Dst const& dst) {
  {
    SCOPED_TRACE("coordinate form");
    round_trip<T, Box, false>(src, dst);
  }
  {
    SCOPED_TRACE("partitioned form");
    round_trip<T, Box, true>(src, dst);
  }
}

TEST(TmaRank, RoundTripRank1) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  round_trip_both_forms<bfloat16_t, Box1>(kSrc1, kDst1);
}

TEST(TmaRank, RoundTripRank4) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  round_trip_both_forms<bfloat16_t, Box4>(kSrc4, kDst4);
}

TEST(TmaRank, RoundTripRank5) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  round_trip_both_forms<float, Box5>(kSrc5, kDst5);
}

// Launches `kernel` (128 threads a CTA) on `grid` CTAs in clusters of 2 along x.
template <class... Params, class... Args>
cudaError_t launch_in_pairs(void (*kernel)(Params...), unsigned grid, Args&&... args) {
  arch::ClusterLaunch l;
  l.grid = dim3(grid);
  l.block = dim3(128);
  l.cluster = dim3(2, 1, 1);
  l.smem = 0;
  return arch::launch_cluster(kernel, l, std::forward<Args>(args)...);
}

// Cluster c (CTAs 2c and 2c + 1) loads box c of the tensor into both CTAs:
// kSlices false, CTA 0 multicasts the whole box; true, each CTA loads its
// half (tma_partition with a cluster layout of 2) and multicasts it. Each
// CTA then copies out what it holds.
template <class Tma, class Box, bool kSlices>
__global__ void __launch_bounds__(128, 1)
    multicast_kernel(__grid_constant__ const Tma tma, Extents ext, typename Tma::value_type* out) {
  using T = typename Tma::value_type;
  constexpr int R = decltype(rank(Box{}))::value;
  constexpr Extents kBox = box_extents<Box>();
  constexpr int kElems = int(decltype(size(Box{}))::value);
  __shared__ __align__(1024) unsigned char smem_raw[kSmemBytes];
  __shared__ __align__(8) std::uint64_t mbar;
  unsigned char* const base = aligned_1024(smem_raw);
  Tensor sX = make_tensor(make_smem_ptr(reinterpret_cast<T*>(base)), Box{});  // (B0,...,BR-1)
  std::uint32_t const rank_in_cluster = block_rank_in_cluster();
  poison_box_and_init(base, kElems * int(sizeof(T)), mbar);
  cluster_sync();  // both barriers initialised before any multicast lands
  Extents const t = tile_coord(int(blockIdx.x) / 2, ext, kBox);
  if (threadIdx.x == 0) {
    mbarrier_arrive_expect_tx(&mbar, tma.box_bytes());  // the whole box arrives in each CTA
    if constexpr (kSlices) {
      Tensor gX = local_tile(tma.get_tma_tensor(shape_of<R>(ext)), product_each(shape(Box{})), coord_of<R>(t));
      auto [tXgX, tXsX] =
          tma_partition(tma, rank_in_cluster, Layout<_2>{}, group_modes<0, R>(sX), group_modes<0, R>(gX));
      copy(tma.with(mbar, std::uint16_t(0b11)), tXgX, tXsX);
    } else if (rank_in_cluster == 0) {
      Extents o;
      for (int m = 0; m < 5; ++m) o.v[m] = t.v[m] * kBox.v[m];
      copy(tma.with(mbar, std::uint16_t(0b11)), coord_of<R>(o), sX);
    }
  }
  mbarrier_wait(&mbar, 0);
  T* const dst = out + std::size_t(blockIdx.x) * kElems;
  for (int k = int(threadIdx.x); k < kElems; k += int(blockDim.x)) dst[k] = sX(k);
  cluster_sync();  // no CTA leaves while its peer's multicast may still target it
}

template <class Box, bool kSlices, class Multicast>
void multicast_round_trip(GmemTensor<4> const& src, Multicast multicast) {
  using T = bfloat16_t;
  constexpr Extents kBox = box_extents<Box>();
  constexpr int kElems = int(decltype(size(Box{}))::value);
  std::vector<T> const x = fresh_random<T>(src.span());
  DevBuf dx, dout;
  ASSERT_NO_FATAL_FAILURE(upload(dx, x));
  auto tma = make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, make_tensor(make_gmem_ptr(dx.as<T>()), src.layout()), Box{},
                           multicast);
  ASSERT_TRUE(tma.ok()) << tma.error();
  EXPECT_EQ(tma.multicast(), 2);
  static_assert(decltype(tma)::kRank == 4);
  static_assert(decltype(tma)::slices() == (kSlices ? 2 : 1));
  ASSERT_TRUE(tma.slices_ok()) << tma.slice_error();
  int const boxes = tile_count(src.e, kBox);
  std::size_t const out_elems = std::size_t(boxes) * 2 * kElems;
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, out_elems * sizeof(T)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, out_elems * sizeof(T)));
  TESSERA_TEST_CUDA(launch_in_pairs(multicast_kernel<decltype(tma), Box, kSlices>, unsigned(2 * boxes), tma, src.e,
                                    dout.as<T>()));
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<T> out(out_elems);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), dout.p, out_elems * sizeof(T), cudaMemcpyDeviceToHost));
  long long wrong = 0;
  for (int cta = 0; cta < 2 * boxes; ++cta) {
    Extents const tc = tile_coord(cta / 2, src.e, kBox);
    for (int k = 0; k < kElems; ++k) {
      Extents c = box_coord(k, kBox);
      for (int m = 0; m < 4; ++m) c.v[m] += tc.v[m] * kBox.v[m];
      T const want = src.inside(c) ? x[std::size_t(src.offset(c))] : T(0.0f);
      T const have = out[std::size_t(cta) * kElems + std::size_t(k)];
      if (!same_bits(have, want) && ++wrong <= 6)
        ADD_FAILURE() << "CTA " << cta << " (rank " << cta % 2 << " in its cluster), box element " << k << ": got "
                      << float(have) << ", expected " << float(want);
    }
  }
  EXPECT_EQ(wrong, 0);
}

TEST(TmaRank, MulticastRank4) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  // The box's slowest mode (D, extent 2) cuts into 2 slices of (2, 16, 4, 1).
  static_assert(tma_slice_mode_v<Box4, 2> == 3);
  {
    SCOPED_TRACE("whole box from CTA 0");
    multicast_round_trip<Box4, false>(kSrc4, 2);
  }
  {
    SCOPED_TRACE("a half from each CTA (tma_partition, Layout<_2>)");
    multicast_round_trip<Box4, true>(kSrc4, Int<2>{});
  }
}

// Each CTA writes its random box into shared memory through the box's
// layout, fences, and thread 0 adds it into the tensor with one
// SM90_TMA_REDUCE_ADD copy.
template <class Tma, class Box>
__global__ void __launch_bounds__(128, 1)
    reduce_add_kernel(__grid_constant__ const Tma tma, Extents ext, float const* boxes) {
  constexpr int R = decltype(rank(Box{}))::value;
  constexpr Extents kBox = box_extents<Box>();
  constexpr int kElems = int(decltype(size(Box{}))::value);
  __shared__ __align__(1024) unsigned char smem_raw[kSmemBytes];
  Tensor sX = make_tensor(make_smem_ptr(reinterpret_cast<float*>(aligned_1024(smem_raw))), Box{});
  float const* const src = boxes + std::size_t(blockIdx.x) * kElems;
  for (int k = int(threadIdx.x); k < kElems; k += int(blockDim.x)) sX(k) = src[k];
  tma_store_fence();  // this thread's writes, visible to the TMA unit
  __syncthreads();
  if (threadIdx.x == 0) {
    Extents const t = tile_coord(int(blockIdx.x), ext, kBox);
    Extents o;
    for (int m = 0; m < 5; ++m) o.v[m] = t.v[m] * kBox.v[m];
    copy(tma, sX, coord_of<R>(o));
    tma_store_arrive();
    tma_store_wait<0>();
  }
}

TEST(TmaRank, ReduceAddRank5) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  GmemTensor<5> const& d = kSrc5;
  constexpr Extents kBox = box_extents<Box5>();
  constexpr int kElems = int(decltype(size(Box5{}))::value);
  int const tiles = tile_count(d.e, kBox);
  std::vector<float> const old = fresh_random<float>(d.span() + 64);
  std::vector<float> const boxes = fresh_random<float>(std::size_t(tiles) * kElems);
  DevBuf dd, dboxes;
  ASSERT_NO_FATAL_FAILURE(upload(dd, old));
  ASSERT_NO_FATAL_FAILURE(upload(dboxes, boxes));
  auto tma = make_tma_copy(SM90_TMA_REDUCE_ADD{}, make_tensor(make_gmem_ptr(dd.as<float>()), d.layout()), Box5{});
  ASSERT_TRUE(tma.ok()) << tma.error();
  static_assert(decltype(tma)::kRank == 5);
  reduce_add_kernel<decltype(tma), Box5><<<tiles, 128>>>(tma, d.e, dboxes.as<float>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<float> got(old.size());
  TESSERA_TEST_CUDA(cudaMemcpy(got.data(), dd.p, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
  // What each element of the buffer should have received: -1 nothing.
  std::vector<long long> from(old.size(), -1);
  for (int t = 0; t < tiles; ++t) {
    Extents const tc = tile_coord(t, d.e, kBox);
    for (int k = 0; k < kElems; ++k) {
      Extents c = box_coord(k, kBox);
      for (int m = 0; m < 5; ++m) c.v[m] += tc.v[m] * kBox.v[m];
      if (d.inside(c)) from[std::size_t(d.offset(c))] = std::size_t(t) * kElems + std::size_t(k);
    }
  }
  long long wrong = 0, added = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (from[i] < 0) {
      if (!same_bits(got[i], old[i]) && ++wrong <= 6)
        ADD_FAILURE() << "element " << i << ", outside the tensor, changed: " << got[i] << ", was " << old[i];
      continue;
    }
    ++added;
    double const want = double(old[i]) + double(boxes[std::size_t(from[i])]);  // fp64; f32 rounds once
    if (std::fabs(double(got[i]) - want) > std::ldexp(std::fabs(want), -23) + 1e-30 && ++wrong <= 6)
      ADD_FAILURE() << "element " << i << " = " << got[i] << ", expected " << want << " (" << old[i] << " + "
                    << boxes[std::size_t(from[i])] << ")";
  }
  EXPECT_EQ(added, 3LL * 4 * 5 * 6 * 36);
  EXPECT_EQ(wrong, 0);
}

// No GPU needed: the maps the cases above ask make_tma_copy for pass
// make_tma_desc's rules (so a failure on the GPU is not a refused plan).
TEST(TmaRank, PlansOfTheCases) {
  alignas(1024) static unsigned char buf[1024];
  auto const* b16 = reinterpret_cast<bfloat16_t const*>(buf);
  auto const* f32 = reinterpret_cast<float const*>(buf);
  auto check = [](TmaPlan const& p, int rank, std::uint32_t box_bytes, bool store) {
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.rank, rank);
    EXPECT_EQ(p.box_bytes, box_bytes);
    if (store) EXPECT_EQ(p.store_error(), "");
  };
  check(make_tma_desc(b16, kSrc1.layout(), Box1{}), 1, 256, false);
  check(make_tma_desc(b16, kDst1.layout(), Box1{}), 1, 256, true);
  check(make_tma_desc(b16, kSrc4.layout(), Box4{}), 4, 512, false);
  check(make_tma_desc(b16, kDst4.layout(), Box4{}), 4, 512, true);
  check(make_tma_desc(b16, kSrc4.layout(), tma_slice_layout_t<Box4, 2>{}), 4, 256, false);
  check(make_tma_desc(f32, kSrc5.layout(), Box5{}), 5, 384, true);
  check(make_tma_desc(f32, kDst5.layout(), Box5{}), 5, 384, true);
  TmaPlan const p4 = make_tma_desc(b16, kSrc4.layout(), Box4{});
  EXPECT_EQ(p4.mode_of_dim[0], 1);  // B, the contiguous mode, is TMA dimension 0
  EXPECT_EQ(p4.desc.swizzle, tma::Swizzle::b32);
  EXPECT_EQ(p4.smem_align, 256u);
}

// No GPU needed: the rank and element-stride rules fail before the driver
// entry point is looked up.
TEST(TmaRank, EncodeRefusesRanksOutside1To5) {
  alignas(16) static float buf[64];
  CUtensorMap m;
  tma::TiledDesc d;
  d.type = CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  d.elem_bytes = 4;
  d.base = buf;
  for (int i = 0; i < 5; ++i) {
    d.dims[i] = 4;
    d.box[i] = 4;
  }
  for (int i = 0; i < 4; ++i) d.strides[i] = 16;
  for (int r : {0, 6, -1}) {
    d.rank = r;
    tma::EncodeResult const e = tma::encode_tiled(&m, d);
    EXPECT_FALSE(e.ok);
    EXPECT_NE(e.message.find("rank " + std::to_string(r) + "; TMA maps have rank 1 to 5"), std::string::npos)
        << e.message;
  }
  d.rank = 5;
  d.elem_strides[3] = 9;
  tma::EncodeResult const e = tma::encode_tiled(&m, d);
  EXPECT_FALSE(e.ok);
  EXPECT_NE(e.message.find("elem_strides[3] = 9 outside [1, 8]"), std::string::npos) << e.message;
}

}  // namespace
