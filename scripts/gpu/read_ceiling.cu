// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// How fast can one launch read N bytes from DRAM? The skinny GEMM rows of
// `tessera bench` are judged as "bytes of A and B once / median time" against
// the copy bandwidth of a 512 MiB cudaMemcpy. Everything here is timed the
// bench's way: events around each launch enqueued behind the bench's queue
// gate (the host's launch time is not in the interval; GATED=0: without it),
// three rotating buffer sets (no run finds its bytes in L2), median of ROUNDS.
//   BYTES            read_kernel (16-byte loads, eight in flight per thread)
//                    over BYTES, on one and two CTAs per SM and on 128 CTAs,
//                    and an empty launch of each grid: the most a kernel
//                    reading BYTES could show in the %BW column;
//   ROWSxROW_BYTES   band_read: each of 128 CTAs reads a band of rows, W bytes
//                    of each row per step, as a skinny GEMM's tiles do;
//   TMA_STREAM=M,N,K the GEMM's loads by a TMA ring, without MMAs (tma_stream).
// Session 43 (runs 360-367) measured with it; docs/performance.md.
// Usage: read_ceiling ROUNDS BYTES|ROWSxROW_BYTES...
// Build: nvcc -O3 -arch=sm_90a -std=c++20 -Iinclude -Iinclude/tessera -Ibench
//        scripts/gpu/read_ceiling.cu bench/queue_hold.cu src/tma/tensor_map.cpp
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "driver_util.cuh"
#include "queue_hold.hpp"
#include "tessera/arch/sm90/fence.cuh"
#include "tessera/arch/sm90/mbarrier.cuh"
#include "tessera/arch/sm90/tma.cuh"
#include "tessera/tma/tensor_map.hpp"

constexpr int kUnroll = 8;

// Each thread XORs 16-byte words, kUnroll loads issued before any is used;
// the XOR is stored only if it equals a value the data never gives (the
// buffers are filled with one byte), so the loads stay and nothing is written.
// kStream: ld.global.cs (evict-first); otherwise ld.global.nc (the default
// policy, as the GEMM's TMA loads use).
template <bool kStream = true>
__device__ __forceinline__ int4 load16(int4 const* p) {
  if constexpr (kStream) return __ldcs(p);
  else return __ldg(p);
}
template <bool kStream = true>
__global__ void read_kernel(int4 const* __restrict__ p, long long n16, int* sink) {
  long long const stride = static_cast<long long>(gridDim.x) * blockDim.x;
  long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  int acc = 0;
  for (; i + (kUnroll - 1) * stride < n16; i += kUnroll * stride) {
    int4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = load16<kStream>(p + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  for (; i < n16; i += stride) {
    int4 const v = load16<kStream>(p + i);
    acc ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (acc == 0x12345678) *sink = acc;
}

// A skinny GEMM's large operand, as its tiles read it: ROWS rows of
// ROW_BYTES, CTA b owning a band of ROWS / gridDim.x rows and reading it
// W bytes of every row at a time (one K-block: W = 128 for 64 bf16), the band's
// next W bytes after that, and so on; the loads of eight such steps (per
// thread) in flight, as a ring of stages keeps them. box_vecs < w_vecs: a
// step is read in groups of box_rows rows, each group as W / box bytes boxes
// one after the other, each box the group's rows x box bytes (as TMA loads of
// 128-byte box rows would be: box_rows = the band's rows for one 2D box per
// K-block, 8 for a box that walks 8 rows, then the next 128 bytes of them).
// Every count but row_vecs is a power of two, passed as its log2 so that the
// index arithmetic is shifts and masks (with divisions this kernel was bound
// by its instructions: ~62% of the copy bandwidth in runs 363-364, and in
// run 361 a 2-3% loss at W = 128 that was the divisions', not the DRAM's).
__global__ void band_read(int4 const* __restrict__ p, int rows_log2, int row_vecs, int w_log2, int box_log2,
                          int box_rows_log2, int* sink) {
  int const rows_per_cta = 1 << rows_log2;
  int const total = rows_per_cta * row_vecs;
  int const step_log2 = rows_log2 + w_log2;
  int4 const* base = p + static_cast<long long>(blockIdx.x) * rows_per_cta * row_vecs;
  int acc = 0;
  for (int i0 = threadIdx.x; i0 < total; i0 += kUnroll * blockDim.x) {
    int4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      int const i = i0 + u * blockDim.x;
      int const step = i >> step_log2, in_step = i & ((1 << step_log2) - 1);
      int const group_log2 = box_rows_log2 + w_log2, group_box_log2 = box_rows_log2 + box_log2;
      int const group = in_step >> group_log2, in_group = in_step & ((1 << group_log2) - 1);
      int const box = in_group >> group_box_log2, in_box = in_group & ((1 << group_box_log2) - 1);
      int const r = (group << box_rows_log2) + (in_box >> box_log2);
      int const c = (box << box_log2) + (in_box & ((1 << box_log2) - 1));
      v[u] = i < total ? __ldcs(base + r * row_vecs + (step << w_log2) + c) : int4{};
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  if (acc == 0x12345678) *sink = acc;
}

// The skinny GEMM's loads without its MMAs: one producer thread fills a ring
// of `stages` stages by TMA (128-byte swizzled boxes of 64 bf16 x rows, as
// the GEMM's K-major operands), one consumer warp waits for each stage and
// gives it back. CTA b streams B rows [(b >> b_share_log2) * b_rows, + b_rows)
// (b_share_log2 = 1: two CTAs read each band, as the two 64-row halves of
// ping-pong 64x128 tiles at M = 128 do) and, when a_rows > 0, A rows
// [(b & 1) * a_rows, + a_rows) of a small A (re-read from L2 by every CTA).
__global__ void __launch_bounds__(64, 1)
    tma_stream(const __grid_constant__ CUtensorMap tmap_b, const __grid_constant__ CUtensorMap tmap_a, int b_rows,
               int b_share_log2, int a_rows, int k_blocks, int stages, int* sink) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  unsigned char* smem = smem_raw + ((1024u - (tessera::arch::smem_u32(smem_raw) & 1023u)) & 1023u);
  int const b_bytes = b_rows * 128, a_bytes = a_rows * 128, stage_bytes = b_bytes + a_bytes;
  uint64_t* full = reinterpret_cast<uint64_t*>(smem + stages * stage_bytes);
  uint64_t* empty = full + stages;
  if (threadIdx.x == 0) {
    for (int s = 0; s < stages; ++s) {
      tessera::arch::mbarrier_init(&full[s], 1);
      tessera::arch::mbarrier_init(&empty[s], 1);
    }
    tessera::arch::fence_mbarrier_init();
  }
  __syncthreads();
  int const b_row0 = (int(blockIdx.x) >> b_share_log2) * b_rows, a_row0 = (int(blockIdx.x) & 1) * a_rows;
  if (threadIdx.x == 0) {
    for (int kb = 0; kb < k_blocks; ++kb) {
      int const s = kb % stages;
      tessera::arch::mbarrier_wait(&empty[s], ((kb / stages) & 1) ^ 1u);
      tessera::arch::mbarrier_arrive_expect_tx(&full[s], uint32_t(stage_bytes));
      tessera::arch::tma_load_2d(smem + s * stage_bytes, &tmap_b, &full[s], kb * 64, b_row0);
      if (a_rows > 0) tessera::arch::tma_load_2d(smem + s * stage_bytes + b_bytes, &tmap_a, &full[s], kb * 64, a_row0);
    }
  } else if (threadIdx.x >= 32) {
    int acc = 0;
    for (int kb = 0; kb < k_blocks; ++kb) {
      int const s = kb % stages;
      tessera::arch::mbarrier_wait(&full[s], (kb / stages) & 1);
      acc ^= reinterpret_cast<int const*>(smem + s * stage_bytes)[threadIdx.x];
      __syncwarp();
      if (threadIdx.x == 32) tessera::arch::mbarrier_arrive(&empty[s]);
    }
    if (acc == 0x12345678) *sink = acc;
  }
#endif
}

__global__ void empty_kernel(int* sink) {
  if (threadIdx.x == 1u << 30) *sink = 0;
}

int ilog2(int x) {
  int l = 0;
  while ((1 << (l + 1)) <= x) ++l;
  return l;
}

// Ungated (GATED = 0), the host's launch time falls in the interval: an
// empty launch then reads 5-8 us (runs 360-365).
bool const kGated = !std::getenv("GATED") || std::atoi(std::getenv("GATED")) != 0;

template <class F>
float median_ms(int rounds, F&& launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  static tessera::bench::QueueHold gate;
  std::vector<float> t;
  for (int r = -3; r < rounds; ++r) {
    if (kGated && r >= 0 && !gate.hold(nullptr).ok()) {
      std::fprintf(stderr, "queue gate failed\n");
      std::exit(1);
    }
    CHECK(cudaEventRecord(a));
    launch(r);
    CHECK(cudaEventRecord(b));
    if (kGated && r >= 0) gate.release();
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 0) t.push_back(ms);
  }
  if (kGated && gate.timed_out()) std::printf("  (a queue gate opened by its timeout: host time in some intervals)\n");
  std::sort(t.begin(), t.end());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  return t[t.size() / 2];
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: [GATED=0] [TMA_STREAM=M,N,K] %s ROUNDS BYTES|ROWSxROW_BYTES...\n", argv[0]);
    return 2;
  }
  int const rounds = std::atoi(argv[1]);
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int* sink = nullptr;
  CHECK(cudaMalloc(&sink, sizeof(int)));

  // The bench's denominator: a 512 MiB device-to-device copy, (read + write) / time.
  size_t const copy_bytes = std::max<size_t>(4 * static_cast<size_t>(prop.l2CacheSize), size_t{512} << 20);
  void *src = nullptr, *dst = nullptr;
  CHECK(cudaMalloc(&src, copy_bytes));
  CHECK(cudaMalloc(&dst, copy_bytes));
  CHECK(cudaMemset(src, 1, copy_bytes));
  // About a second of reads first, so that the timed runs find the GPU's
  // clocks where a loaded GPU keeps them (the bench warms up as well).
  for (int i = 0; i < 8000; ++i)
    read_kernel<<<prop.multiProcessorCount, 1024>>>(static_cast<int4 const*>(src), copy_bytes / 16, sink);
  CHECK(cudaDeviceSynchronize());
  float const copy_ms = median_ms(rounds, [&](int) {
    CHECK(cudaMemcpyAsync(dst, src, copy_bytes, cudaMemcpyDeviceToDevice, nullptr));
  });
  double const copy_gbps = 2.0 * copy_bytes / (copy_ms * 1e-3) / 1e9;
  CHECK(cudaFree(src));
  CHECK(cudaFree(dst));
  std::printf("%s, %d SMs, %s; copy of %zu MiB: %.0f GB/s (the bench's %%BW denominator)\n", prop.name,
              prop.multiProcessorCount, kGated ? "gated" : "ungated", copy_bytes >> 20, copy_gbps);

  // One CTA per SM, two, and 128 CTAs (the grid of the skinny defaults).
  for (int grid : {prop.multiProcessorCount, 2 * prop.multiProcessorCount, 128}) {
    float const empty_us = 1e3f * median_ms(rounds, [&](int) { empty_kernel<<<grid, 1024>>>(sink); });
    std::printf("grid %d x 1024: empty launch %.2f us\n", grid, empty_us);
    for (int a = 2; a < argc; ++a) {
      if (std::strchr(argv[a], 'x')) continue;
      long long const bytes = std::atoll(argv[a]) / 16 * 16;
      int4* buf[3];
      for (auto& b : buf) {
        CHECK(cudaMalloc(&b, bytes));
        CHECK(cudaMemset(b, 1, bytes));
      }
      for (bool stream : {true, false}) {
        float const ms = median_ms(rounds, [&](int r) {
          if (stream) read_kernel<true><<<grid, 1024>>>(buf[(r + 3) % 3], bytes / 16, sink);
          else read_kernel<false><<<grid, 1024>>>(buf[(r + 3) % 3], bytes / 16, sink);
        });
        CHECK(cudaGetLastError());
        double const gbps = bytes / (ms * 1e-3) / 1e9;
        std::printf("  read %9lld B (%s): %8.2f us  %6.0f GB/s  %5.1f%% of the copy bandwidth\n", bytes,
                    stream ? "ld.cs" : "ld.nc", 1e3 * ms, gbps, 100.0 * gbps / copy_gbps);
      }
      for (auto& b : buf) CHECK(cudaFree(b));
    }
  }
  // TMA_STREAM=M,N,K: the loads of a 128 x N x K-ish skinny GEMM's tiles by
  // TMA, without MMAs, on 128 CTAs: B (N x K bf16, K-major) in bands of
  // N / 128 rows, alone; then in bands of 2N / 128 rows read by two CTAs
  // each, plus 64 rows of an M = 128 A each (ping-pong 64x128's loads).
  if (char const* spec = std::getenv("TMA_STREAM")) {
    int m = 0, n = 0, k = 0;
    if (std::sscanf(spec, "%d,%d,%d", &m, &n, &k) != 3 || n % 256 || k % 64) {
      std::fprintf(stderr, "TMA_STREAM=M,N,K with N a multiple of 256 and K of 64\n");
      return 2;
    }
    long long const b_bytes = 2LL * n * k, a_bytes = 2LL * m * k;
    void* bufs[3][2];  // [input set][B, A]
    for (auto& set : bufs)
      for (int o = 0; o < 2; ++o) {
        long long const bytes = o == 0 ? b_bytes : a_bytes;
        CHECK(cudaMalloc(&set[o], bytes));
        CHECK(cudaMemset(set[o], 1, bytes));
      }
    // A K-major bf16 operand of `rows` rows, boxes of 64 elements x box_rows.
    auto encode = [k](void* base, int rows, int box_rows, CUtensorMap* out) {
      tessera::tma::TiledDesc d;
      d.rank = 2;
      d.elem_bytes = 2;
      d.base = base;
      d.dims[0] = std::uint64_t(k);
      d.dims[1] = std::uint64_t(rows);
      d.strides[0] = std::uint64_t(k) * 2;
      d.box[0] = 64;
      d.box[1] = std::uint32_t(box_rows);
      d.swizzle = tessera::tma::Swizzle::b128;
      auto const res = tessera::tma::encode_tiled(out, d);
      if (!res.ok) std::fprintf(stderr, "tensor map: %s\n", res.message.c_str());
      return res.ok;
    };
    // Stages: 192 KiB of loads in flight per SM (the GEMM's ring: 8 stages of
    // 24 KiB), and the B-alone ring also at a half and a third of that.
    struct Case { char const* name; int b_rows, share_log2, a_rows, stages; long long dram; };
    int const band_stages = 192 * 1024 / (n / 128 * 128);
    Case const cases[] = {{"B alone, one band per CTA", n / 128, 0, 0, band_stages, b_bytes},
                          {"B alone, one band per CTA", n / 128, 0, 0, band_stages / 2, b_bytes},
                          {"B alone, one band per CTA", n / 128, 0, 0, band_stages / 3, b_bytes},
                          {"B bands read twice + A rows (pp64)", 2 * n / 128, 1, 64, 8, b_bytes + a_bytes}};
    for (Case const& c : cases) {
      if (c.b_rows > 256) continue;  // a TMA box spans at most 256 rows
      CUtensorMap map_b[3], map_a[3];  // per input set, boxes of the case's bands
      for (int i = 0; i < 3; ++i)
        if (!encode(bufs[i][0], n, c.b_rows, &map_b[i]) || !encode(bufs[i][1], m, std::max(c.a_rows, 1), &map_a[i]))
          return 1;
      int const smem = c.stages * (c.b_rows + c.a_rows) * 128 + 2 * c.stages * 8 + 1024;
      CHECK(cudaFuncSetAttribute(tma_stream, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      auto launch = [&](int r) {
        int const i = (r + 3) % 3;
        tma_stream<<<128, 64, smem>>>(map_b[i], map_a[i], c.b_rows, c.share_log2, c.a_rows, k / 64, c.stages, sink);
      };
      launch(0);
      CHECK(cudaDeviceSynchronize());
      float const ms = median_ms(rounds, launch);
      CHECK(cudaGetLastError());
      double const gbps = c.dram / (ms * 1e-3) / 1e9;
      std::printf("TMA stream %s (%d stages of %d KiB): %8.2f us  %6.0f GB/s  %5.1f%% of the copy bandwidth\n",
                  c.name, c.stages, (c.b_rows + c.a_rows) * 128 / 1024, 1e3 * ms, gbps, 100.0 * gbps / copy_gbps);
    }
    for (auto& r : bufs)
      for (void* b : r) CHECK(cudaFree(b));
  }

  // ROWSxROW_BYTES: band reads on 128 CTAs, W = 128 B up to the whole row.
  for (int a = 2; a < argc; ++a) {
    char const* x = std::strchr(argv[a], 'x');
    if (!x) continue;
    int const rows = std::atoi(argv[a]), row_bytes = std::atoi(x + 1), grid = 128;
    if (rows % grid || ((rows / grid) & (rows / grid - 1)) || row_bytes % 128) {
      std::fprintf(stderr, "%s: the band (rows / %d) must be a power of two, the row a multiple of 128 B\n", argv[a], grid);
      return 2;
    }
    long long const bytes = static_cast<long long>(rows) * row_bytes;
    int4* buf[3];
    for (auto& b : buf) {
      CHECK(cudaMalloc(&b, bytes));
      CHECK(cudaMemset(b, 1, bytes));
    }
    std::printf("band reads of %d rows x %d B on %d CTAs:\n", rows, row_bytes, grid);
    std::vector<int> widths;
    for (int w = 128; w <= 1024 && w < row_bytes; w *= 2)
      if (row_bytes % w == 0) widths.push_back(w);
    if ((row_bytes & (row_bytes - 1)) == 0) widths.push_back(row_bytes);
    for (int w : widths) {
      // (box bytes, box rows): the whole W of each row at once; 128-byte
      // boxes over the band's rows; 128-byte boxes over 8 rows.
      int const band = rows / grid;
      for (auto [box, box_rows] : {std::pair{w, band}, std::pair{128, band}, std::pair{128, 8}}) {
        if (box != w && (w == 128 || w % 128)) continue;
        float const ms = median_ms(rounds, [&](int r) {
          band_read<<<grid, 1024>>>(buf[(r + 3) % 3], ilog2(band), row_bytes / 16, ilog2(w / 16), ilog2(box / 16),
                                    ilog2(box_rows), sink);
        });
        CHECK(cudaGetLastError());
        double const gbps = bytes / (ms * 1e-3) / 1e9;
        std::printf("  W %6d B, boxes %5d B x %2d rows: %8.2f us  %6.0f GB/s  %5.1f%% of the copy bandwidth\n", w,
                    box, box_rows, 1e3 * ms, gbps, 100.0 * gbps / copy_gbps);
      }
    }
    for (auto& b : buf) CHECK(cudaFree(b));
  }
  CHECK(cudaFree(sink));
  return 0;
}
