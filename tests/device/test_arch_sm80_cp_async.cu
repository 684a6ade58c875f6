// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.

// cp.async 4/8/16 bytes, .ca and .cg, plain and zero-filling. A warp copies
// a tile of random bytes from global to shared memory and writes it back;
// masked bytes must come back as zeros. The global source is allocated with
// exactly the valid byte count and masked chunks point past its end, so a
// masked copy that read its source would be an out-of-bounds read: run under
// `compute-sanitizer --tool memcheck` (scripts/gpu/arch.sh does) to prove
// nothing is read.

#include <gtest/gtest.h>

#include "device_test.cuh"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <tessera/arch/sm80/cp_async.cuh>
#include <tessera/arch/sm90/mbarrier.cuh>

namespace {

using namespace tessera::arch;


enum class Mode {
  kPlain,     // every chunk copied: cp_async(dst, src)
  kPred,      // chunk copied iff wholly valid, else zero-filled: cp_async(dst, src, pred)
  kSrcBytes,  // the valid prefix of each chunk copied, the rest zero-filled: cp_async_zfill
  kWaitAll,   // plain copies completed by cp_async_wait_all() without a commit
};

constexpr int kChunksPerThread = 2;
constexpr uint8_t kPoison = 0xab;

template <int kBytes, class Policy, Mode kMode>
__global__ void cp_async_kernel(const uint8_t* src, int n_valid, uint8_t* out) {
  constexpr int kTileBytes = 32 * kChunksPerThread * kBytes;
  __shared__ alignas(16) uint8_t tile[kTileBytes];
  const int lane = static_cast<int>(threadIdx.x);
  for (int i = lane; i < kTileBytes; i += 32) tile[i] = kPoison;
  __syncthreads();
  for (int c = 0; c < kChunksPerThread; ++c) {
    const int offset = (c * 32 + lane) * kBytes;
    // Past n_valid this pointer is out of bounds of the allocation on purpose.
    const uint8_t* s = src + offset;
    if constexpr (kMode == Mode::kPlain || kMode == Mode::kWaitAll) {
      cp_async<kBytes, Policy>(tile + offset, s);
    } else if constexpr (kMode == Mode::kPred) {
      cp_async<kBytes, Policy>(tile + offset, s, offset + kBytes <= n_valid);
    } else {
      const int valid = min(max(n_valid - offset, 0), kBytes);
      cp_async_zfill<kBytes, Policy>(tile + offset, s, static_cast<uint32_t>(valid));
    }
  }
  if constexpr (kMode == Mode::kWaitAll) {
    cp_async_wait_all();
  } else {
    cp_async_fence();
    cp_async_wait<0>();
  }
  __syncthreads();
  for (int i = lane; i < kTileBytes; i += 32) out[i] = tile[i];
}

template <int kBytes, class Policy, Mode kMode>
void check_copy() {
  auto kernel = cp_async_kernel<kBytes, Policy, kMode>;
  TESSERA_TEST_REQUIRE_KERNEL(kernel, 80);
  constexpr int kTileBytes = 32 * kChunksPerThread * kBytes;
  // Partial tiles: a bit over half the tile, not a multiple of the chunk, so
  // one chunk straddles the end (kPred masks it whole, kSrcBytes keeps its
  // valid prefix of kBytes/2 - 1 or 3 bytes).
  const bool full = kMode == Mode::kPlain || kMode == Mode::kWaitAll;
  const int n_valid = full ? kTileBytes : kTileBytes / 2 + std::max(kBytes / 2 - 1, 3);

  std::random_device entropy;
  const unsigned seed = entropy();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 gen(seed);
  std::vector<uint8_t> h_src(n_valid);
  for (auto& b : h_src) b = static_cast<uint8_t>(1 + gen() % 255);  // never zero, so zero-fill is visible

  // NOTE: a cp.async with a partial src-size may read its whole window: under
  // memcheck on an H200 (2026-11-22) the 4-byte form (one run) and the 8-byte
  // form (another run) were reported as invalid full-width reads past the end
  // of the allocation. So the allocation covers the straddling chunk's whole
  // window; the bytes past src-size must still come back as zeros. Kernels
  // must keep every partial window inside the allocation, or predicate whole
  // chunks (src-size 0 never read out of bounds in any run).
  const int n_alloc = kMode == Mode::kSrcBytes ? (n_valid + kBytes - 1) / kBytes * kBytes : n_valid;
  h_src.resize(n_alloc, 0xee);

  uint8_t* d_src;
  uint8_t* d_out;
  TESSERA_TEST_CUDA(cudaMalloc(&d_src, n_alloc));
  TESSERA_TEST_CUDA(cudaMalloc(&d_out, kTileBytes));
  TESSERA_TEST_CUDA(cudaMemcpy(d_src, h_src.data(), n_alloc, cudaMemcpyHostToDevice));
  TESSERA_TEST_CUDA(cudaMemset(d_out, 0x5a, kTileBytes));
  kernel<<<1, 32>>>(d_src, n_valid, d_out);
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<uint8_t> out(kTileBytes);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), d_out, kTileBytes, cudaMemcpyDeviceToHost));
  cudaFree(d_src);
  cudaFree(d_out);

  int bad = 0;
  for (int i = 0; i < kTileBytes; ++i) {
    const int chunk_end = (i / kBytes + 1) * kBytes;
    bool copied;
    if (full) {
      copied = true;
    } else if (kMode == Mode::kPred) {
      copied = chunk_end <= n_valid;
    } else {
      copied = i < n_valid;
    }
    const uint8_t want = copied ? h_src[i] : uint8_t{0};
    if (out[i] != want && ++bad <= 8) {
      ADD_FAILURE() << "byte " << i << ": got " << int{out[i]} << ", want " << int{want}
                    << (copied ? " (copied)" : " (zero-filled)");
    }
  }
  EXPECT_EQ(bad, 0) << kBytes << "-byte cp.async: mismatching bytes (n_valid " << n_valid << " of " << kTileBytes
                    << ")";
}

TEST(ArchCpAsyncSm80, Ca4) { check_copy<4, CacheAlways, Mode::kPlain>(); }
TEST(ArchCpAsyncSm80, Ca8) { check_copy<8, CacheAlways, Mode::kPlain>(); }
TEST(ArchCpAsyncSm80, Ca16) { check_copy<16, CacheAlways, Mode::kPlain>(); }
TEST(ArchCpAsyncSm80, Cg16) { check_copy<16, CacheGlobal, Mode::kPlain>(); }
TEST(ArchCpAsyncSm80, Ca4Zfill) { check_copy<4, CacheAlways, Mode::kPred>(); }
TEST(ArchCpAsyncSm80, Ca8Zfill) { check_copy<8, CacheAlways, Mode::kPred>(); }
TEST(ArchCpAsyncSm80, Ca16Zfill) { check_copy<16, CacheAlways, Mode::kPred>(); }
TEST(ArchCpAsyncSm80, Cg16Zfill) { check_copy<16, CacheGlobal, Mode::kPred>(); }
TEST(ArchCpAsyncSm80, Ca4SrcBytes) { check_copy<4, CacheAlways, Mode::kSrcBytes>(); }
TEST(ArchCpAsyncSm80, Ca8SrcBytes) { check_copy<8, CacheAlways, Mode::kSrcBytes>(); }
TEST(ArchCpAsyncSm80, Ca16SrcBytes) { check_copy<16, CacheAlways, Mode::kSrcBytes>(); }
TEST(ArchCpAsyncSm80, Cg16SrcBytes) { check_copy<16, CacheGlobal, Mode::kSrcBytes>(); }
TEST(ArchCpAsyncSm80, Ca16WaitAll) { check_copy<16, CacheAlways, Mode::kWaitAll>(); }
TEST(ArchCpAsyncSm80, Cg16WaitAll) { check_copy<16, CacheGlobal, Mode::kWaitAll>(); }

// Two committed groups: after cp_async_wait<1>() the older group is complete
// (the newer may or may not be); after cp_async_wait<0>() both are.
constexpr int kStageBytes = 32 * 16;

__global__ void cp_async_groups_kernel(const uint8_t* src, uint8_t* out) {
  __shared__ alignas(16) uint8_t stages[2][kStageBytes];
  const int lane = static_cast<int>(threadIdx.x);
  for (int i = lane; i < 2 * kStageBytes; i += 32) stages[i / kStageBytes][i % kStageBytes] = kPoison;
  __syncthreads();
  cp_async<16, CacheGlobal>(&stages[0][lane * 16], src + lane * 16);
  cp_async_fence();
  cp_async<16, CacheGlobal>(&stages[1][lane * 16], src + kStageBytes + lane * 16);
  cp_async_fence();
  cp_async_wait<1>();
  __syncthreads();
  for (int i = lane; i < kStageBytes; i += 32) out[i] = stages[0][i];
  cp_async_wait<0>();
  __syncthreads();
  for (int i = lane; i < kStageBytes; i += 32) out[kStageBytes + i] = stages[1][i];
}

// Runs a one-CTA `kernel` (`threads` threads) that copies two stages of
// fresh random bytes (never the poison byte) from `src` into shared memory
// and writes them back to `out`; the bytes must come back unchanged.
void check_two_stages(void (*kernel)(const uint8_t*, uint8_t*), int threads, const char* what) {
  std::random_device entropy;
  const unsigned seed = entropy();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937 gen(seed);
  std::vector<uint8_t> h_src(2 * kStageBytes);
  for (auto& b : h_src) b = static_cast<uint8_t>(1 + gen() % 255);
  std::replace(h_src.begin(), h_src.end(), kPoison, uint8_t(kPoison + 1));  // poison never a source byte
  tessera::test::DevBuf d_src, d_out;
  ASSERT_NO_FATAL_FAILURE(tessera::test::upload(d_src, h_src));
  TESSERA_TEST_CUDA(cudaMalloc(&d_out.p, 2 * kStageBytes));
  TESSERA_TEST_CUDA(cudaMemset(d_out.p, 0, 2 * kStageBytes));
  kernel<<<1, threads>>>(d_src.as<uint8_t>(), d_out.as<uint8_t>());
  TESSERA_TEST_CUDA(cudaGetLastError());
  TESSERA_TEST_CUDA(cudaDeviceSynchronize());
  std::vector<uint8_t> out(2 * kStageBytes);
  TESSERA_TEST_CUDA(cudaMemcpy(out.data(), d_out.p, 2 * kStageBytes, cudaMemcpyDeviceToHost));
  EXPECT_EQ(out, h_src) << what;
}

TEST(ArchCpAsyncSm80, WaitGroupOrder) {
  TESSERA_TEST_REQUIRE_KERNEL(cp_async_groups_kernel, 80);
  check_two_stages(cp_async_groups_kernel, 32, "stage contents differ after cp_async_wait<1>/<0>");
}

// cp_async_mbarrier_arrive_noinc: warp 0 copies a stage and arrives on the
// stage's mbarrier (32 expected arrivals) once its copies land; warp 1 waits
// on the phase with test_wait.parity and reads the stage, with no
// cp.async.wait and no CTA barrier between the copies and its reads. Two
// phases on one barrier, the second into the other stage, issued after a
// CTA barrier that follows the first phase's completion.
__global__ void cp_async_mbarrier_kernel(const uint8_t* src, uint8_t* out) {
  __shared__ alignas(16) uint8_t stages[2][kStageBytes];
  __shared__ uint64_t bar;
  const int tid = static_cast<int>(threadIdx.x);
  const int lane = tid % 32;
  for (int i = tid; i < 2 * kStageBytes; i += 64) stages[i / kStageBytes][i % kStageBytes] = kPoison;
  if (tid == 0) mbarrier_init(&bar, 32);
  __syncthreads();
  for (int phase = 0; phase < 2; ++phase) {
    if (tid < 32) {
      cp_async<16, CacheGlobal>(&stages[phase][lane * 16], src + phase * kStageBytes + lane * 16);
      cp_async_mbarrier_arrive_noinc(&bar);
    } else {
      while (!mbarrier_test_wait_parity(&bar, uint32_t(phase))) {
      }
      for (int i = lane; i < kStageBytes; i += 32) out[phase * kStageBytes + i] = stages[phase][i];
    }
    // The next phase's arrivals only after this one has completed (its
    // waiter has seen it), so that none counts towards this phase.
    __syncthreads();
  }
}

TEST(ArchCpAsyncSm80, MbarrierArriveNoinc) {
  TESSERA_TEST_REQUIRE_KERNEL(cp_async_mbarrier_kernel, 80);
  check_two_stages(cp_async_mbarrier_kernel, 64,
                   "a stage read after its mbarrier phase completed differs from the source");
}

}  // namespace
