// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#include "queue_hold.hpp"

#include <atomic>
#include <string>

#include <tessera/arch/global_timer.cuh>

namespace tessera::bench {
namespace {

// Spins until flags[0] reaches `ticket` (the host's release) or for
// `timeout_ns`; records a timeout in flags[1].
__global__ void queue_gate(volatile std::uint32_t* flags, std::uint32_t ticket, std::uint64_t timeout_ns) {
  std::uint64_t const start = arch::global_timer_ns();
  while (flags[0] < ticket) {
    if (arch::global_timer_ns() - start > timeout_ns) {
      flags[1] = 1u;
      break;
    }
    __nanosleep(1000);
  }
}

}  // namespace

QueueHold::~QueueHold() {
  if (flags_ != nullptr) cudaFreeHost(const_cast<std::uint32_t*>(flags_));
}

Status QueueHold::hold(cudaStream_t stream, double timeout_ms) {
  if (flags_ == nullptr) {
    void* host = nullptr;
    cudaError_t err = cudaHostAlloc(&host, 2 * sizeof(std::uint32_t), cudaHostAllocMapped);
    if (err == cudaSuccess) err = cudaHostGetDevicePointer(reinterpret_cast<void**>(&device_flags_), host, 0);
    if (err != cudaSuccess) {
      if (host != nullptr) cudaFreeHost(host);
      cudaGetLastError();
      return {StatusCode::cuda_error, std::string("queue gate: mapped host flag: ") + cudaGetErrorString(err)};
    }
    flags_ = static_cast<volatile std::uint32_t*>(host);
    flags_[0] = 0;
    flags_[1] = 0;
  }
  ++ticket_;
  queue_gate<<<1, 1, 0, stream>>>(device_flags_, ticket_, static_cast<std::uint64_t>(timeout_ms * 1e6));
  cudaError_t const err = cudaGetLastError();
  if (err != cudaSuccess) return {StatusCode::cuda_error, std::string("queue gate: launch: ") + cudaGetErrorString(err)};
  return {};
}

void QueueHold::release() {
  if (flags_ == nullptr) return;
  // The launches before this store were issued first; the kernel only
  // needs to see the new ticket eventually.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  flags_[0] = ticket_;
}

bool QueueHold::timed_out() const { return flags_ != nullptr && flags_[1] != 0; }

}  // namespace tessera::bench
