// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// A gate in a stream's queue, so that the timed runs behind it are all
// enqueued before the GPU reaches the first of them.
//
// Why: a CUDA event pair around a call measures the call's GPU time only if
// the GPU is still busy when the first event is recorded. When the host
// takes longer to issue a call than the GPU takes to run it (cuBLAS spends
// 17-21 us of host time per call, a 1024^3 bf16 GEMM runs in ~9 us on an
// H100), the GPU idles between the runs and each interval also holds the
// part of the host work that comes after the first event. Behind a gate the
// launches queue up while the GPU waits, and every interval is GPU time.
//
// Every kernel enqueued behind a gate must have been launched once before.
// With lazy module loading (CUDA's default), the first launch of a kernel
// may wait for the device to go idle, and a held gate does not go idle until
// its timeout: the host then blocks in that launch, the gate times out, and
// timed_out() says so. The benchmark's warm-up runs launch everything first.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "tessera/gemm/api.hpp"

namespace tessera::bench {

class QueueHold {
 public:
  QueueHold() = default;
  QueueHold(const QueueHold&) = delete;
  QueueHold& operator=(const QueueHold&) = delete;
  ~QueueHold();

  // Enqueues a one-thread kernel on `stream` that spins until release() (or,
  // should the host never get there, for `timeout_ms`); the work enqueued
  // after it waits. Allocates the mapped host flag on first use.
  Status hold(cudaStream_t stream, double timeout_ms = 2000.0);
  // Opens the last gate that hold() enqueued (a host write the kernel polls).
  void release();
  // Whether any gate opened by its timeout rather than by release(): the
  // launches behind it were then not all queued in time.
  bool timed_out() const;

 private:
  volatile std::uint32_t* flags_ = nullptr;  // [0]: last released ticket, [1]: timeout seen (host-mapped)
  std::uint32_t* device_flags_ = nullptr;    // the same memory, device address
  std::uint32_t ticket_ = 0;
};

}  // namespace tessera::bench
