// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// TMA loads and prefetches under an L2 cache policy: make_l2_cache_policy
// (createpolicy.fractional, tessera/tensor/cache_policy.hpp) and the
// .L2::cache_hint forms behind copy(tma.with(mbar[, cta_mask], hint), ...)
// and prefetch(tma, coord, hint) (tessera/tma/tma_copy.hpp). A policy is a
// hint, so the test is that each one loads exactly what the plain load does:
//   TmaCacheHint.LoadUnderEachPolicy       SM90_TMA_LOAD, one CTA per box of
//       a fresh random bf16 200x136 row-major tensor (edge boxes reach past
//       both edges and read zeros), 64x64 boxes in the 128-byte swizzle;
//       the coordinate form and CuTe's partitioned form.
//   TmaCacheHint.MulticastUnderEachPolicy  SM90_TMA_LOAD_MULTICAST in
//       clusters of 2 (arch::launch_cluster): each CTA loads its half of its
//       cluster's box under the policy and multicasts it to both; both CTAs'
//       shared memory is checked.
// The policies: each primary priority (evict_first, evict_normal,
// evict_last, evict_unchanged) with fraction 1, and evict_last /
// evict_first with the evict_first secondary at fractions 0.5 and 0.25
// (passed at run time, so createpolicy takes the fraction in a register).
// Shared memory is poisoned before every load; the comparison is bit-exact
// against the host's copy of the box. That the PTX holds the hinted forms is
// tests/ptx/tma_cache_hint.cu. Skips (loudly) unless the device is sm_90.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <tessera/tessera.hpp>

#include "device_test.cuh"

namespace {

using namespace tessera;
using tessera::test::DevBuf;
using tessera::test::fresh_random;
using tessera::test::upload;

constexpr int kRows = 200, kCols = 136;  // 136 bf16 = 272 bytes a row, a multiple of 16
using Box = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<bfloat16_t>{}, Shape<_64, _64>{}));
constexpr int B0 = 64, B1 = 64;
constexpr int kBoxesM = (kRows + B0 - 1) / B0, kBoxesK = (kCols + B1 - 1) / B1;
constexpr int kBoxes = kBoxesM * kBoxesK;
constexpr int kSmemBytes = 1024 + B0 * B1 * int(sizeof(bfloat16_t));  // the box plus alignment slack

// One policy: the primary and secondary priorities as template arguments of
// make_l2_cache_policy, the fraction a run-time argument.
template <L2Priority kPrimary, L2Priority kSecondary = L2Priority::evict_unchanged>
struct Policy {
  static constexpr L2Priority primary = kPrimary;
  static constexpr L2Priority secondary = kSecondary;
};

__device__ inline unsigned char* aligned_1024(unsigned char* raw) {
  return raw + ((1024u - (cast_smem_ptr_to_uint(raw) & 1023u)) & 1023u);
}

// CTA q loads box q / N (boxes numbered M-fastest) under the policy and
// writes what landed in its shared memory to out[q] (B0 * B1 elements,
// column by column). N == 1: one CTA per box, coordinate or partitioned
// form. N == 2: a cluster per box, each CTA its half, multicast to both.
template <class Tma, class P, int N, bool kPartitioned>
__global__ void __launch_bounds__(128, 1)
    hinted_load_kernel(__grid_constant__ const Tma tma, float fraction, bfloat16_t* out) {
  __shared__ __align__(1024) unsigned char smem_raw[kSmemBytes];
  __shared__ __align__(8) std::uint64_t mbar;
  Tensor sX = make_tensor(make_smem_ptr(reinterpret_cast<bfloat16_t*>(aligned_1024(smem_raw))), Box{});  // (B0,B1)
  for (int i = int(threadIdx.x); i < B0 * B1; i += int(blockDim.x)) sX(i % B0, i / B0) = bfloat16_t(-7.0f);
  arch::fence_proxy_async_shared_cta();  // the poison precedes the TMA writes
  if (threadIdx.x == 0) {
    mbarrier_init(&mbar, 1);
    arch::fence_mbarrier_init();
  }
  if constexpr (N > 1) cluster_sync();  // every barrier initialised before a peer's multicast lands
  else __syncthreads();
  int const box = int(blockIdx.x) / N;
  Tensor gX = local_tile(tma.get_tma_tensor(make_shape(kRows, kCols)), make_shape(Int<B0>{}, Int<B1>{}),
                         make_coord(box % kBoxesM, box / kBoxesM));  // (B0,B1) -> (m,k)
  if (threadIdx.x == 0) {
    L2CachePolicy const hint = make_l2_cache_policy<P::primary, P::secondary>(fraction);
    mbarrier_arrive_expect_tx(&mbar, tma.box_bytes());  // multicast: both halves arrive here
    if constexpr (N > 1) {
      std::uint32_t const rank = block_rank_in_cluster();
      if (rank == 0) prefetch(tma, gX(0, 0), hint);  // the whole box, once per cluster
      auto [tXgX, tXsX] = tma_partition(tma, rank, Layout<Int<N>>{}, group_modes<0, 2>(sX), group_modes<0, 2>(gX));
      copy(tma.with(mbar, std::uint16_t((1u << N) - 1), hint), tXgX, tXsX);
    } else if constexpr (kPartitioned) {
      auto [tXgX, tXsX] = tma_partition(tma, Int<0>{}, Layout<_1>{}, group_modes<0, 2>(sX), group_modes<0, 2>(gX));
      prefetch(tma, tXgX, hint);
      copy(tma.with(mbar, hint), tXgX, tXsX);
    } else {
      prefetch(tma, gX(0, 0), hint);
      copy(tma.with(mbar, hint), gX(0, 0), sX);
    }
  }
  mbarrier_wait(&mbar, 0);
  bfloat16_t* const o = out + std::size_t(blockIdx.x) * B0 * B1;
  for (int i = int(threadIdx.x); i < B0 * B1; i += int(blockDim.x)) o[i] = sX(i % B0, i / B0);
  if constexpr (N > 1) cluster_sync();  // no CTA leaves while its multicast may still write into the peer
}

// Entries of `out` (kBoxes * N copies of a box) that differ from the host's
// box, bit for bit; reports the first few.
long long count_wrong(std::vector<bfloat16_t> const& out, std::vector<bfloat16_t> const& x, int n) {
  long long wrong = 0;
  for (int q = 0; q < kBoxes * n; ++q) {
    int const box = q / n, bm = box % kBoxesM, bk = box / kBoxesM;
    for (int i = 0; i < B0 * B1; ++i) {
      int const r = bm * B0 + i % B0, c = bk * B1 + i / B0;
      bfloat16_t const want = r < kRows && c < kCols ? x[std::size_t(r) * kCols + std::size_t(c)] : bfloat16_t(0.0f);
      bfloat16_t const got = out[std::size_t(q) * B0 * B1 + std::size_t(i)];
      if (std::memcmp(&want, &got, sizeof(want)) != 0 && ++wrong <= 4)
        ADD_FAILURE() << "CTA " << q << " (box " << box << ") element (" << r << "," << c << "): got " << float(got)
                      << ", expected " << float(want);
    }
  }
  return wrong;
}

// Loads every box of a fresh tensor under policy P at `fraction`: one CTA a
// box (N == 1, form kPartitioned) or a cluster of N a box.
template <class P, int N, bool kPartitioned = false>
void load_under(float fraction) {
  SCOPED_TRACE(std::string(N > 1 ? "multicast in clusters of 2" : kPartitioned ? "partitioned form" : "coordinate form") +
               ", primary " + std::to_string(int(P::primary)) + ", secondary " + std::to_string(int(P::secondary)) +
               ", fraction " + std::to_string(fraction));
  std::vector<bfloat16_t> const x = fresh_random<bfloat16_t>(std::size_t(kRows) * kCols);
  DevBuf dx, dout;
  ASSERT_NO_FATAL_FAILURE(upload(dx, x));
  auto const g = make_tensor(make_gmem_ptr(dx.as<bfloat16_t>()), make_layout(make_shape(kRows, kCols), make_stride(kCols, _1{})));
  using Op = std::conditional_t<(N > 1), SM90_TMA_LOAD_MULTICAST, SM90_TMA_LOAD>;
  auto tma = make_tma_copy(Op{}, g, Box{}, make_shape(Int<B0>{}, Int<B1>{}), Int<N>{});
  ASSERT_TRUE(tma.ok()) << tma.error();
  if constexpr (N > 1) {
    static_assert(decltype(tma)::slices() == N, "the 64-row box cuts into one half per CTA");
    ASSERT_TRUE(tma.slices_ok()) << tma.slice_error();
  }
  std::size_t const out_elems = std::size_t(kBoxes) * N * B0 * B1;
  TESSERA_TEST_CUDA(cudaMalloc(&dout.p, out_elems * sizeof(bfloat16_t)));
  TESSERA_TEST_CUDA(cudaMemset(dout.p, 0xFF, out_elems * sizeof(bfloat16_t)));
  auto kernel = hinted_load_kernel<decltype(tma), P, N, kPartitioned>;
  if constexpr (N > 1) {
    arch::ClusterLaunch l;
    l.grid = dim3(unsigned(kBoxes * N));
    l.block = dim3(128);
    l.cluster = dim3(unsigned(N), 1, 1);
    TESSERA_TEST_CUDA(arch::launch_cluster(kernel, l, tma, fraction, dout.as<bfloat16_t>()));
  } else {
    kernel<<<kBoxes, 128>>>(tma, fraction, dout.as<bfloat16_t>());
    TESSERA_TEST_CUDA(cudaGetLastError());
  }
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<bfloat16_t> out(out_elems);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), dout.p, out_elems * sizeof(bfloat16_t), cudaMemcpyDeviceToHost));
  EXPECT_EQ(count_wrong(out, x, N), 0);
}

// Every policy of the header comment, through load_under<P, N, kPartitioned>.
template <int N, bool kPartitioned>
void load_under_each_policy() {
  load_under<Policy<L2Priority::evict_first>, N, kPartitioned>(1.0f);
  load_under<Policy<L2Priority::evict_normal>, N, kPartitioned>(1.0f);
  load_under<Policy<L2Priority::evict_last>, N, kPartitioned>(1.0f);
  load_under<Policy<L2Priority::evict_unchanged>, N, kPartitioned>(1.0f);
  load_under<Policy<L2Priority::evict_last, L2Priority::evict_first>, N, kPartitioned>(0.5f);
  load_under<Policy<L2Priority::evict_first, L2Priority::evict_first>, N, kPartitioned>(0.25f);
}

TEST(TmaCacheHint, LoadUnderEachPolicy) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  load_under_each_policy<1, false>();
  load_under_each_policy<1, true>();
}

TEST(TmaCacheHint, MulticastUnderEachPolicy) {
  TESSERA_TEST_REQUIRE_SM_EXACTLY(90);
  load_under_each_policy<2, false>();
}

}  // namespace
