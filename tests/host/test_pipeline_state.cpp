// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The host-side arithmetic of the pipelines (tessera/pipeline/):
//   - PipelineState: fixed answers (a 6-stage ring over 40 k-tiles, one
//     stage, the count's wrap), then the laws over a generated sweep (every
//     ring of 1-17 stages, every start, n up to 5 laps and a few huge n):
//     advance(n) == n steps of ++, index == (i + n) % S, phase == p ^ ((i +
//     n) / S) % 2, count == c + n;
//   - the parity protocol the pipelines build on, run against a model of
//     an mbarrier under random schedules: a producer starting at
//     make_producer_start_state and C consumers starting at (0, 0, 0) move
//     N fills through the ring in order, the producer never overwriting a
//     stage some consumer has not released, and producer_tail's waits
//     complete exactly when every fill has been released;
//   - release_peers: for every cluster of up to 16 CTAs, the peers of a CTA
//     are the CTAs sharing its x or y (the union of its two multicast masks,
//     create_tma_multicast_mask<0> | <1>), distinct, itself among them, and
//     every CTA receives release_peer_count releases per releasing warp.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include "tessera/layout.hpp"
#include "tessera/pipeline/pipeline_state.hpp"
#include "tessera/pipeline/pipeline_token.hpp"
#include "tessera/pipeline/release_peers.hpp"
#include "tessera/tma/multicast_mask.hpp"

namespace {

using namespace tessera;

// A stand-in for a pipeline class: make_producer_start_state needs only Stages.
template <std::uint32_t S>
struct Ring {
  static constexpr std::uint32_t Stages = S;
};

template <std::uint32_t S>
void expect_state(PipelineState<S> const& s, int index, std::uint32_t phase, std::uint32_t count) {
  EXPECT_EQ(s.index(), index);
  EXPECT_EQ(s.phase(), phase);
  EXPECT_EQ(s.count(), count);
}

// --- fixed answers -------------------------------------------------------------------------------

TEST(PipelineState, FixedAnswersSixStages) {
  PipelineState<6> read;
  expect_state(read, 0, 0, 0);
  ++read;
  expect_state(read, 1, 0, 1);
  for (int i = 1; i < 6; ++i) ++read;
  expect_state(read, 0, 1, 6);  // the first wrap flips the phase
  for (int i = 6; i < 12; ++i) ++read;
  expect_state(read, 0, 0, 12);  // the second flips it back
  for (int i = 12; i < 40; ++i) ++read;
  expect_state(read, 4, 0, 40);  // 40 = 6 laps + 4: six flips

  auto write = make_producer_start_state<Ring<6>>();
  static_assert(std::is_same_v<decltype(write), PipelineState<6>>);
  expect_state(write, 0, 1, 0);
  expect_state(PipelineState<6>(write).advance(40), 4, 1, 40);
  expect_state(PipelineState<6>(write).advance(5), 5, 1, 5);
  expect_state(PipelineState<6>(write).advance(6), 0, 0, 6);

  PipelineState<6> s(5, 1, 7);
  expect_state(PipelineState<6>(s).advance(1), 0, 0, 8);
  expect_state(PipelineState<6>(s).advance(13), 0, 0, 20);  // 5 + 13 = 18: three wraps
  expect_state(PipelineState<6>(s).advance(0), 5, 1, 7);
  expect_state(PipelineState<6>::make_pipeline_state(s, 7), 0, 1, 14);  // 12: two wraps, no change
  PipelineState<6> t = s;
  t += 14;
  expect_state(t, 1, 0, 21);  // 19: three wraps
  PipelineState<6> u = s;
  PipelineState<6> const before = u++;
  EXPECT_EQ(before, s);
  expect_state(u, 0, 0, 8);
}

TEST(PipelineState, OneStageFlipsEveryStep) {
  PipelineState<1> s;
  for (std::uint32_t n = 1; n <= 9; ++n) {
    ++s;
    expect_state(s, 0, n % 2, n);
  }
  expect_state(PipelineState<1>().advance(1001), 0, 1, 1001);
}

TEST(PipelineState, CountWrapsModulo2To32) {
  PipelineState<4> s(3, 0, 0xffffffffu);
  ++s;
  expect_state(s, 0, 1, 0);
}

// Usable in constant expressions, as CuTe-style kernels precompute states.
constexpr PipelineState<3> kAfterSeven = PipelineState<3>::make_pipeline_state(PipelineState<3>{}, 7);
static_assert(kAfterSeven.index() == 1 && kAfterSeven.phase() == 0 && kAfterSeven.count() == 7);
static_assert(make_producer_start_state<Ring<3>>().phase() == 1);

TEST(PipelineToken, ComparesWithStatus) {
  ConsumerToken const done{BarrierStatus::WaitDone};
  ProducerToken const again{BarrierStatus::WaitAgain};
  EXPECT_TRUE(done == BarrierStatus::WaitDone);
  EXPECT_FALSE(done == BarrierStatus::WaitAgain);
  EXPECT_TRUE(again == BarrierStatus::WaitAgain);
  EXPECT_TRUE(done == ConsumerToken{BarrierStatus::WaitDone});
}

// --- laws over a sweep ---------------------------------------------------------------------------

template <std::uint32_t S>
void sweep_laws() {
  SCOPED_TRACE(testing::Message() << "Stages = " << S);
  int bad = 0;
  for (int i = 0; i < int(S); ++i)
    for (std::uint32_t p = 0; p <= 1; ++p) {
      PipelineState<S> const start(i, p, 100u);
      PipelineState<S> stepped = start;
      for (std::uint32_t n = 0; n <= 5 * S + 3; ++n) {
        PipelineState<S> const jumped = PipelineState<S>(start).advance(n);
        std::uint64_t const end = std::uint64_t(i) + n;
        bool const ok = jumped == stepped && jumped.index() == int(end % S) &&
                        jumped.phase() == (p ^ std::uint32_t((end / S) % 2)) && jumped.count() == 100u + n &&
                        jumped.index() >= 0 && jumped.index() < int(S) && jumped.phase() <= 1u;
        if (!ok && bad++ < 5)
          ADD_FAILURE() << "start (" << i << "," << p << ") n " << n << ": advance gives (" << jumped.index() << ","
                        << jumped.phase() << "," << jumped.count() << "), ++ gives (" << stepped.index() << ","
                        << stepped.phase() << "," << stepped.count() << ")";
        ++stepped;
      }
      // Huge jumps: the closed form, computed without overflow.
      for (std::uint32_t n : {0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu}) {
        PipelineState<S> const jumped = PipelineState<S>(start).advance(n);
        std::uint64_t const end = std::uint64_t(i) + n;
        if ((jumped.index() != int(end % S) || jumped.phase() != (p ^ std::uint32_t((end / S) % 2)) ||
             jumped.count() != std::uint32_t(100u + n)) &&
            bad++ < 5)
          ADD_FAILURE() << "start (" << i << "," << p << ") n " << n;
      }
    }
  EXPECT_EQ(bad, 0);
}

TEST(PipelineState, AdvanceIsRepeatedIncrementOverASweep) {
  [&]<std::uint32_t... S>(std::integer_sequence<std::uint32_t, S...>) {
    (sweep_laws<S + 1>(), ...);
  }(std::make_integer_sequence<std::uint32_t, 17>{});
}

// --- the parity protocol against a model mbarrier ------------------------------------------------

// The phase logic of an mbarrier: `completed` phases so far; a wait on
// parity p succeeds iff the phase in progress has the other parity.
struct ModelBarrier {
  std::uint32_t completed = 0;
  int pending = 0, count = 0;
  void init(int n) { completed = 0, pending = n, count = n; }
  [[nodiscard]] bool test_wait(std::uint32_t parity) const { return (completed & 1u) != parity; }
  void arrive() {
    if (--pending == 0) {
      ++completed;
      pending = count;
    }
  }
};

// One producer, C consumers, N fills through an S-stage ring, scheduled at
// random; what PipelineAsync does, with each consumer standing for one
// arriving thread.
template <std::uint32_t S>
void run_protocol(int consumers, int fills, unsigned seed) {
  SCOPED_TRACE(testing::Message() << "Stages " << S << ", consumers " << consumers << ", fills " << fills
                                  << ", seed " << seed);
  std::vector<ModelBarrier> full(S), empty(S);
  for (auto& b : full) b.init(1);
  for (auto& b : empty) b.init(consumers);
  std::vector<int> data(S, -1);             // the fill a stage holds
  std::vector<int> unreleased(S, 0);        // consumers yet to release it
  auto write = make_producer_start_state<Ring<S>>();
  std::vector<PipelineState<S>> read(consumers);
  int produced = 0;
  std::vector<int> consumed(consumers, 0);
  std::mt19937 rng(seed);
  int idle = 0;
  while (true) {
    bool all_done = produced == fills;
    for (int c : consumed) all_done = all_done && c == fills;
    if (all_done) break;
    int const who = int(rng() % unsigned(consumers + 1));
    bool moved = false;
    if (who == consumers) {
      if (produced < fills && empty[write.index()].test_wait(write.phase())) {
        ASSERT_EQ(unreleased[write.index()], 0) << "the producer refills a stage before every release";
        data[write.index()] = produced++;
        unreleased[write.index()] = consumers;
        full[write.index()].arrive();
        ++write;
        moved = true;
      }
    } else {
      PipelineState<S>& r = read[who];
      if (consumed[who] < fills && full[r.index()].test_wait(r.phase())) {
        ASSERT_EQ(data[r.index()], consumed[who]) << "consumer " << who << " reads the wrong fill";
        ++consumed[who];
        --unreleased[r.index()];
        empty[r.index()].arrive();
        ++r;
        moved = true;
      }
    }
    idle = moved ? 0 : idle + 1;
    ASSERT_LT(idle, 100000) << "no one can move: deadlock";
  }
  // producer_tail: the next S states' waits all succeed once every fill is released.
  PipelineState<S> tail = write;
  for (std::uint32_t i = 0; i < S; ++i, ++tail) EXPECT_TRUE(empty[tail.index()].test_wait(tail.phase()));
  EXPECT_EQ(write.count(), std::uint32_t(fills));
}

TEST(PipelineState, ParityProtocolMovesEveryFillInOrder) {
  unsigned seed = std::random_device{}();
  for (int consumers : {1, 2, 3}) {
    for (int fills : {0, 1, 5, 40, 123}) {
      run_protocol<1>(consumers, fills, seed++);
      run_protocol<2>(consumers, fills, seed++);
      run_protocol<6>(consumers, fills, seed++);
      run_protocol<7>(consumers, fills, seed++);
    }
  }
}

// producer_tail must not return while a release is missing: with every fill
// consumed but one consumer's last release held back, its waits are not all
// complete.
TEST(PipelineState, TailWaitsForTheLastRelease) {
  constexpr std::uint32_t S = 4;
  for (int fills : {1, 3, 4, 9, 40}) {
    std::vector<ModelBarrier> empty(S);
    for (auto& b : empty) b.init(2);
    auto write = make_producer_start_state<Ring<S>>();
    PipelineState<S> r0, r1;
    for (int k = 0; k < fills; ++k, ++write) {
      ASSERT_TRUE(empty[write.index()].test_wait(write.phase()));
      empty[r0.index()].arrive();
      ++r0;
      if (k + 1 < fills) {
        empty[r1.index()].arrive();
        ++r1;
      }
    }
    auto all_free = [&] {
      PipelineState<S> t = write;
      bool ok = true;
      for (std::uint32_t i = 0; i < S; ++i, ++t) ok = ok && empty[t.index()].test_wait(t.phase());
      return ok;
    };
    EXPECT_FALSE(all_free()) << fills << " fills, one release missing";
    empty[r1.index()].arrive();
    EXPECT_TRUE(all_free()) << fills << " fills, all released";
  }
}

// --- release peers -------------------------------------------------------------------------------

TEST(ReleasePeers, FixedAnswers) {
  EXPECT_EQ(release_peer_count(1, 1), 1);
  EXPECT_EQ(release_peer_rank(1, 1, 0, 0, 0), 0u);
  EXPECT_EQ(release_peer_count(2, 1), 2);
  EXPECT_EQ(release_peer_rank(2, 1, 1, 0, 0), 0u);
  EXPECT_EQ(release_peer_rank(2, 1, 1, 0, 1), 1u);
  // 2x2, CTA (1, 1) = rank 3: (0,1) = 2, (1,1) = 3, then (1,0) = 1.
  EXPECT_EQ(release_peer_count(2, 2), 3);
  EXPECT_EQ(release_peer_rank(2, 2, 1, 1, 0), 2u);
  EXPECT_EQ(release_peer_rank(2, 2, 1, 1, 1), 3u);
  EXPECT_EQ(release_peer_rank(2, 2, 1, 1, 2), 1u);
  // 1x4, CTA (0, 2): only its y column of x = 0.
  EXPECT_EQ(release_peer_count(1, 4), 4);
  EXPECT_EQ(release_peer_rank(1, 4, 0, 2, 0), 2u);
  EXPECT_EQ(release_peer_rank(1, 4, 0, 2, 1), 0u);
  EXPECT_EQ(release_peer_rank(1, 4, 0, 2, 2), 1u);
  EXPECT_EQ(release_peer_rank(1, 4, 0, 2, 3), 3u);
}

TEST(ReleasePeers, RowsAndColumnsOfEveryClusterShape) {
  int shapes = 0;
  for (int X = 1; X <= 16; ++X)
    for (int Y = 1; X * Y <= 16; ++Y) {
      ++shapes;
      SCOPED_TRACE(testing::Message() << "cluster " << X << "x" << Y);
      int const n = release_peer_count(X, Y);
      ASSERT_EQ(n, X + Y - 1);
      ASSERT_LE(n, 32) << "a warp's lanes must cover the peers";
      auto const cluster = make_layout(make_shape(X, Y));  // (x, y) -> x + X * y
      std::vector<unsigned> peers(std::size_t(X * Y), 0u);
      std::vector<int> received(std::size_t(X * Y), 0);
      for (int y = 0; y < Y; ++y)
        for (int x = 0; x < X; ++x) {
          unsigned& mask = peers[std::size_t(x + X * y)];
          for (int j = 0; j < n; ++j) {
            std::uint32_t const r = release_peer_rank(X, Y, x, y, j);
            ASSERT_LT(r, std::uint32_t(X * Y));
            EXPECT_EQ(mask & (1u << r), 0u) << "peer " << r << " of (" << x << "," << y << ") listed twice";
            mask |= 1u << r;
            ++received[r];
          }
          unsigned const rows_and_columns = unsigned(create_tma_multicast_mask<0>(cluster, make_coord(x, y))) |
                                            unsigned(create_tma_multicast_mask<1>(cluster, make_coord(x, y)));
          EXPECT_EQ(mask, rows_and_columns) << "(" << x << "," << y << ")";
          EXPECT_NE(mask & (1u << (x + X * y)), 0u) << "a CTA is its own peer";
        }
      for (int a = 0; a < X * Y; ++a) {
        EXPECT_EQ(received[std::size_t(a)], n) << "rank " << a << " receives a wrong number of releases";
        for (int b = 0; b < X * Y; ++b)
          EXPECT_EQ((peers[std::size_t(a)] >> b) & 1u, (peers[std::size_t(b)] >> a) & 1u)
              << "peers are not symmetric: " << a << ", " << b;
      }
    }
  EXPECT_EQ(shapes, 50);
}

}  // namespace
