// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The small vocabulary the pipeline classes (pipeline_tma_async.cuh,
// pipeline_async.cuh) share, in CUTLASS's spelling: what a thread is to a
// pipeline (its ThreadCategory, here PipelineThreadCategory, which each
// pipeline also names as Pipeline::ThreadCategory) and what a non-blocking
// probe found (BarrierStatus, carried in a ProducerToken or ConsumerToken).
//
//   auto token = pipeline.consumer_try_wait(state);   // one probe
//   ... other work ...
//   pipeline.consumer_wait(state, token);              // blocks only if the probe failed
//
// Host and device; no CUDA headers.

#include <cstdint>

#include <tessera/config.hpp>

namespace tessera {

// A thread's part in a pipeline. Producers fill stages (wait on the empty
// barriers, arm and signal the full ones); consumers read them (wait on the
// full barriers, signal the empty ones); a ProducerConsumer thread does
// both; a NonParticipant does neither (it may still construct the pipeline).
enum class PipelineThreadCategory : std::uint32_t { NonParticipant, Producer, Consumer, ProducerConsumer };

// What a probe of a barrier found: WaitDone, the phase had completed (no
// need to wait); WaitAgain, it had not (wait before using the stage).
// WaitOnly is CUTLASS's third value (wait without arriving); the pipelines
// here treat it as WaitAgain.
enum class BarrierStatus : std::uint32_t { WaitAgain = 0u, WaitDone = 1u, WaitOnly = 2u };

// A probe's result, comparable with a BarrierStatus.
class ArrivalToken {
 public:
  TESSERA_HOST_DEVICE constexpr ArrivalToken(BarrierStatus status) : status_(status) {}
  TESSERA_HOST_DEVICE constexpr ArrivalToken() = delete;
  [[nodiscard]] TESSERA_HOST_DEVICE constexpr BarrierStatus get() const { return status_; }
  [[nodiscard]] TESSERA_HOST_DEVICE friend constexpr bool operator==(ArrivalToken const& a, ArrivalToken const& b) {
    return a.status_ == b.status_;
  }
  [[nodiscard]] TESSERA_HOST_DEVICE friend constexpr bool operator==(ArrivalToken const& a, BarrierStatus s) {
    return a.status_ == s;
  }

 private:
  BarrierStatus status_;
};

// A producer's probe of an empty barrier (producer_try_acquire).
class ProducerToken : public ArrivalToken {
  using ArrivalToken::ArrivalToken;
};

// A consumer's probe of a full barrier (consumer_try_wait, consumer_test_wait).
class ConsumerToken : public ArrivalToken {
  using ArrivalToken::ArrivalToken;
};

}  // namespace tessera
