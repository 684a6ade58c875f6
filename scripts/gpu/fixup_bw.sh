#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# How fast one SM can hand a 128x256 f32 partial tile (128 KiB, the Hopper
# kernel's split-K unit) to L2, by primitive: red.global.add.v2 in the
# accumulator fragment's row-major pattern (what ws_epilogue_splitk does),
# red.global.add.v4 and st.global.cg.v4 in fragment order (thread t's float4
# i at i * 128 + t), and the bulk engine: the fragments staged in shared memory, then
# cp.reduce.async.bulk .add.f32 or cp.async.bulk to global in 8 KiB pieces.
# 256 threads per CTA (two warpgroups of 64 rows each, as the consumers),
# REPS exchanges per CTA in one launch, grids of 1, 16 and 132 CTAs, each
# CTA on its own region. The reduction modes start from zero and check that
# every element ends at REPS (each exchange adds 1.0).
# Logs under $OUT (default /tmp/tessera-fixup). Usage: scripts/gpu/fixup_bw.sh
set -u
OUT=${OUT:-/tmp/tessera-fixup}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
cat > "$OUT/fixup_bw.cu" <<'CU'
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "driver_util.cuh"

constexpr int kTileFloats = 128 * 256;  // one partial tile
constexpr int kThreads = 256;
constexpr int kVec = kTileFloats / 4 / kThreads;  // float4 per thread: 32

enum Mode { kRedV2Rows, kRedV4Frag, kStV4Frag, kBulkRed, kBulkSt };
const char* const kNames[] = {"red.add.v2, fragment rows", "red.add.v4, fragment order",
                              "st.global.cg.v4, fragment order", "smem + cp.reduce.async.bulk.add.f32",
                              "smem + cp.async.bulk (store)"};

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

template <int kMode>
__global__ void __launch_bounds__(kThreads) exchange(float* ws, int reps) {
  extern __shared__ __align__(128) float4 stage[];  // kTileFloats floats
  int const t = threadIdx.x % 128, wg = threadIdx.x / 128;
  int const w = t / 32, g = (t % 32) / 4, q = t % 4;
  float* const tile = ws + std::size_t(blockIdx.x) * kTileFloats;
  float4 acc[kVec];
  for (int i = 0; i < kVec; ++i) acc[i] = make_float4(1.0f, 1.0f, 1.0f, 1.0f);
  for (int r = 0; r < reps; ++r) {
    if constexpr (kMode == kRedV2Rows) {
      // acc[i] = rows g and g + 8 (x, y and z, w), columns 8i + 2q, +1.
#pragma unroll
      for (int i = 0; i < kVec; ++i) {
        float* const p0 = tile + (wg * 64 + 16 * w + g) * 256 + 8 * i + 2 * q;
        asm volatile("red.global.add.v2.f32 [%0], {%1, %2};" ::"l"(p0), "f"(acc[i].x), "f"(acc[i].y) : "memory");
        asm volatile("red.global.add.v2.f32 [%0], {%1, %2};" ::"l"(p0 + 8 * 256), "f"(acc[i].z), "f"(acc[i].w) : "memory");
      }
    } else if constexpr (kMode == kRedV4Frag) {
#pragma unroll
      for (int i = 0; i < kVec; ++i) {
        float* const p = tile + 4 * ((wg * kVec + i) * 128 + t);
        asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(acc[i].x), "f"(acc[i].y),
                     "f"(acc[i].z), "f"(acc[i].w) : "memory");
      }
    } else if constexpr (kMode == kStV4Frag) {
#pragma unroll
      for (int i = 0; i < kVec; ++i) __stcg(reinterpret_cast<float4*>(tile) + (wg * kVec + i) * 128 + t, acc[i]);
    } else {
      // Stage the fragments (fragment order), then one thread per warpgroup
      // hands its 64 KiB to the bulk engine in 8 KiB pieces.
#pragma unroll
      for (int i = 0; i < kVec; ++i) stage[(wg * kVec + i) * 128 + t] = acc[i];
      asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
      asm volatile("bar.sync %0, 128;" ::"r"(1 + wg) : "memory");
      if (t == 0) {
        for (int c = 0; c < 8; ++c) {
          float* const dst = tile + wg * (kTileFloats / 2) + c * 2048;
          uint32_t const src = smem_u32(stage + wg * (kTileFloats / 8) + c * 512);
          if constexpr (kMode == kBulkRed)
            asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%0], [%1], 8192;" ::"l"(dst),
                         "r"(src) : "memory");
          else
            asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 8192;" ::"l"(dst), "r"(src)
                         : "memory");
        }
        asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
      }
      asm volatile("bar.sync %0, 128;" ::"r"(1 + wg) : "memory");
    }
  }
}

template <int kMode>
float time_mode(float* ws, int grid, int reps) {
  int const smem = kMode >= kBulkRed ? kTileFloats * 4 : 0;
  CHECK(cudaFuncSetAttribute(exchange<kMode>, cudaFuncAttributeMaxDynamicSharedMemorySize, kTileFloats * 4));
  CHECK(cudaMemset(ws, 0, std::size_t(grid) * kTileFloats * 4));
  cudaEvent_t e0, e1; CHECK(cudaEventCreate(&e0)); CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventRecord(e0));
  exchange<kMode><<<grid, kThreads, smem>>>(ws, reps);
  CHECK(cudaEventRecord(e1));
  CHECK(cudaEventSynchronize(e1));
  CHECK(cudaGetLastError());
  float ms = 0; CHECK(cudaEventElapsedTime(&ms, e0, e1));
  if (kMode == kRedV2Rows || kMode == kRedV4Frag || kMode == kBulkRed) {
    std::vector<float> h(std::size_t(grid) * kTileFloats);
    CHECK(cudaMemcpy(h.data(), ws, h.size() * 4, cudaMemcpyDeviceToHost));
    long bad = 0;
    for (float x : h) bad += x != float(reps);
    if (bad) std::printf("  CHECK FAILED: %ld of %zu elements != %d\n", bad, h.size(), reps);
  }
  return ms;
}

template <int kMode>
void row(float* ws, int reps) {
  std::printf("%-44s", kNames[kMode]);
  time_mode<kMode>(ws, 1, 2);  // warm-up
  for (int grid : {1, 16, 132}) {
    float const ms = time_mode<kMode>(ws, grid, reps);
    double const us = ms * 1e3 / reps;  // per exchange, each CTA
    double const gbs = double(grid) * reps * kTileFloats * 4 / (ms * 1e-3) / 1e9;
    std::printf(" | %4d CTAs: %6.2f us/tile %7.1f GB/s", grid, us, gbs);
  }
  std::printf("\n");
}

int main() {
  int const reps = 200;
  cudaDeviceProp prop{}; CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s; one 128x256 f32 tile (128 KiB) per exchange, %d exchanges per CTA\n", prop.name, reps);
  float* ws;
  CHECK(cudaMalloc(&ws, std::size_t(132) * kTileFloats * 4));
  row<kRedV2Rows>(ws, reps);
  row<kRedV4Frag>(ws, reps);
  row<kStV4Frag>(ws, reps);
  row<kBulkRed>(ws, reps);
  row<kBulkSt>(ws, reps);
  return 0;
}
CU
nvcc -std=c++20 -O3 -I"$(pwd)/scripts/gpu" -arch=sm_90a "$OUT/fixup_bw.cu" -o "$OUT/fixup_bw" || { echo "build failed"; exit 1; }
"$OUT/fixup_bw" | tee "$OUT/fixup_bw.txt"
