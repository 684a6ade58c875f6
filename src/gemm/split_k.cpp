// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Split-K cost model and workspace (split_k.hpp).
#include "gemm/split_k.hpp"

#include <cuda_runtime.h>

#include <mutex>
#include <vector>

namespace tessera::detail {

// NOTE: the split-K cost model, fitted to runs 12-16 (H100, 2026-11-22). In
// K-block units of the unit's tile: a unit costs its K-blocks + 3 (fill and
// epilogue); a split unit also pays kSplitCost for the reduction (its
// red.global.add of the tile into L2, the count, and for the last unit the
// read, the D stores and the zeroing). Run 16: 2048^3 with every 128x256
// tile split in 4 took 93 us against 28 us unsplit, about 20 K-blocks of
// overhead per unit when all 132 SMs reduce at once (the L2's atomic
// throughput); the tail splits, a few tiles cut into up to 16 units, paid
// off (5120x5120x4096 0.90 -> 0.95-0.96, 16384^3 1.00 -> 1.01,
// 4096x28672x4096 0.97 -> 0.99-1.00). Uniform split-K only won where one
// dimension is tiny and K long (16x4096x14336: 0.59 -> 1.00-1.03 of cuBLAS);
// on 1024^3, 1000^3 and 128x8192x8192 it lost to unsplit tiles. The Ampere
// kernels' tail split uses the same model with their 64-element k-tiles as
// K-blocks and the resident CTAs (two per SM for the seed tile) as slots.
static constexpr double kUnitCost = 3.0, kSplitCost = 16.0;

double split_unit_cost(std::int64_t k_blocks, std::int64_t s) {
  return double((k_blocks + s - 1) / s) + kUnitCost + (s > 1 ? kSplitCost : 0.0);
}

int choose_splits(std::int64_t tiles, std::int64_t k_blocks, int slots) {
  int best = 1;
  double best_cost = 0;
  for (int s = 1; s <= 16; ++s) {
    std::int64_t const per = (k_blocks + s - 1) / s;
    if (s > 1 && per < 4) break;
    std::int64_t const waves = (tiles * s + slots - 1) / slots;
    double const cost = double(waves) * split_unit_cost(k_blocks, s);
    if (s == 1 || cost < best_cost) {
      best = s;
      best_cost = cost;
    }
  }
  return best;
}

int choose_tail_splits(std::int64_t tiles, std::int64_t k_blocks, int slots) {
  std::int64_t const tail = tiles % slots;
  if (tiles < slots || tail == 0 || 2 * tail > slots) return 1;
  std::int64_t s = slots / tail;
  if (s > 16) s = 16;
  if (s > k_blocks / 4) s = k_blocks / 4;
  if (s < 2) return 1;
  return split_unit_cost(k_blocks, s) < split_unit_cost(k_blocks, 1) ? int(s) : 1;
}

double wave_launch_cost(std::int64_t tiles, double tile_cost, std::int64_t slots, double speedup) {
  if (tiles <= 0 || slots <= 0) return 0.0;
  std::int64_t const rest = tiles % slots;
  double cost = double(tiles / slots) * tile_cost;
  if (rest > 0) cost += tile_cost / (1.0 + speedup * (1.0 - double(rest) / double(slots)));
  return cost;
}

// NOTE: seed problem, runs 54 (H100) and 58 (H200): 8 slices (one per SM)
// 420.5-421.0 TFLOP/s against 16 slices (two per SM) 418.1-419.1.
int one_slice_per_sm(int s, std::int64_t tiles, std::int64_t slots, int sms) {
  if (s < 2 || slots <= 0) return s;
  std::int64_t const tail = tiles % slots;
  if (tail == 0) return s;
  std::int64_t const per_sm = sms / tail;
  return per_sm >= 2 && s > per_sm ? int(per_sm) : s;
}

// NOTE: the split-K workspace is cached per (device, stream) and only grows:
// a cudaMallocAsync/cudaFreeAsync pair per call would hand the memory back to
// the default pool, which (release threshold 0) returns it to the driver at
// the next synchronisation, so every call would map memory again on the
// host between launches. Work on one stream runs in order, so reusing the
// buffer there is safe. The buffers live until the process ends (split
// tiles x splits x tile area x 4 bytes each: the heuristic keeps split tiles
// x splits within about a wave of work units, ~17 MB for 128x256 tiles on
// 132 SMs). The Hopper and Ampere kernels share a stream's buffer: stream
// order again. A stream destroyed while its work is pending
// and a new stream that gets the same handle could share a buffer out of
// order: not guarded. Buffer and counters are zeroed once when allocated;
// every launch leaves them zero again (the last unit of each split tile
// zeroes its block and counter).

// cudaMallocAsync + zeroing of `bytes` on `s` into *p; on failure nothing
// stays allocated, *p is null and no CUDA error is left sticky.
static bool alloc_zeroed(void** p, std::size_t bytes, cudaStream_t s) {
  if (cudaMallocAsync(p, bytes, s) == cudaSuccess && cudaMemsetAsync(*p, 0, bytes, s) == cudaSuccess) return true;
  cudaGetLastError();
  if (*p != nullptr) cudaFreeAsync(*p, s);
  *p = nullptr;
  return false;
}

SplitkWorkspace splitk_workspace(std::size_t bytes, gemm_stream_t stream) {
  struct Entry {
    int dev;
    gemm_stream_t stream;
    float* ptr;
    std::size_t bytes;
    int* counters;
  };
  static std::mutex mu;
  static std::vector<Entry> cache;
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return {};
  auto const s = static_cast<cudaStream_t>(stream);
  std::lock_guard<std::mutex> lock(mu);
  Entry* e = nullptr;
  for (Entry& x : cache)
    if (x.dev == dev && x.stream == stream) e = &x;
  if (e == nullptr) {
    cache.push_back({dev, stream, nullptr, 0, nullptr});
    e = &cache.back();
  }
  if (e->counters == nullptr &&
      !alloc_zeroed(reinterpret_cast<void**>(&e->counters), std::size_t(kCounterSlots) * sizeof(int), s))
    return {};
  if (e->ptr != nullptr && e->bytes >= bytes) return {e->ptr, e->counters};
  if (e->ptr != nullptr) cudaFreeAsync(e->ptr, s);
  e->ptr = nullptr;
  e->bytes = 0;
  // The accumulation buffers are zero between launches (every launch zeroes
  // what it used): zero the whole new buffer once.
  if (!alloc_zeroed(reinterpret_cast<void**>(&e->ptr), bytes, s)) return {};
  e->bytes = bytes;
  return {e->ptr, e->counters};
}

}  // namespace tessera::detail
