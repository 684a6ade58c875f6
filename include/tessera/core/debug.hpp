// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CuTe's thread and block selectors for printf debugging in kernels:
//
//   if (thread0()) { print(tAgA); print("\n"); }   // one thread of the grid prints
//   if (thread(5, 1)) print_tensor(tCrC);          // thread 5 of block 1
//
//   block(bid)        the block's linear index (x fastest, then y, z) is bid
//   thread(tid, bid)  the thread's linear index in its block is tid, and block(bid)
//   thread(tid)       thread(tid, 0)
//   thread0()         thread(0, 0)
//   block0()          block(0)
//
// On the host every selector is true, so host code written with them (a
// layout demo, a host test) prints as the one selected thread would.

#include "tessera/config.hpp"

namespace tessera {

TESSERA_HOST_DEVICE inline bool block([[maybe_unused]] int bid) {
#if defined(__CUDA_ARCH__)
  return int(blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y) == bid;
#else
  return true;
#endif
}

TESSERA_HOST_DEVICE inline bool thread([[maybe_unused]] int tid, [[maybe_unused]] int bid) {
#if defined(__CUDA_ARCH__)
  return int(threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y) == tid && block(bid);
#else
  return true;
#endif
}

TESSERA_HOST_DEVICE inline bool thread(int tid) { return thread(tid, 0); }
TESSERA_HOST_DEVICE inline bool thread0() { return thread(0, 0); }
TESSERA_HOST_DEVICE inline bool block0() { return block(0); }

}  // namespace tessera
