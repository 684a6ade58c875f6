// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// The turn arithmetic of OrderedSequenceBarrier (tessera/pipeline/
// ordered_sequence.hpp), host side:
//   - fixed answers: the start states (group 0 at parity 1, the others at
//     0), the next group, and a group's (stage, parity) over its first turns;
//   - laws over every SequenceDepth 1-5 and Length 2-6: a group's n-th turn
//     is at stage n % Depth with parity (n / Depth + [g == 0]) % 2, so the
//     parity flips every Depth turns;
//   - the protocol, run against a model of the mbarriers (Depth x Length of
//     them, group_size arrivals a phase) under random schedules of threads
//     that each do wait / work / arrive for R rounds of every stage, exactly
//     as the device class does: at every stage the turns go group 0, 1, ...,
//     Length - 1, 0, ... (each group exactly once per round, in order, all
//     of a group's threads inside one turn), no two groups are ever inside
//     a turn at the same stage, every probe finds its barrier at most one
//     phase ahead of the phase it names (so a parity is unambiguous), and
//     nobody deadlocks.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "tessera/pipeline/ordered_sequence.hpp"
#include "tessera/pipeline/pipeline_state.hpp"

namespace {

using namespace tessera;

// --- fixed answers -------------------------------------------------------------------------------

TEST(OrderedSequence, FixedAnswers) {
  static_assert(ordered_sequence_start_state<2>(0).phase() == 1u);
  static_assert(ordered_sequence_start_state<2>(1).phase() == 0u);
  static_assert(ordered_sequence_start_state<3>(2).index() == 0);
  static_assert(ordered_sequence_next_group(0, 2) == 1u && ordered_sequence_next_group(1, 2) == 0u);
  static_assert(ordered_sequence_next_group(2, 3) == 0u && ordered_sequence_next_group(1, 3) == 2u);

  // Depth 2: group 0 waits on (stage, parity) (0,1) (1,1) (0,0) (1,0) (0,1) ...
  //          group 1 waits on               (0,0) (1,0) (0,1) (1,1) (0,0) ...
  PipelineState<2> g0 = ordered_sequence_start_state<2>(0), g1 = ordered_sequence_start_state<2>(1);
  int const want_index[] = {0, 1, 0, 1, 0};
  std::uint32_t const want_g0[] = {1, 1, 0, 0, 1};
  std::uint32_t const want_g1[] = {0, 0, 1, 1, 0};
  for (int n = 0; n < 5; ++n, ++g0, ++g1) {
    EXPECT_EQ(g0.index(), want_index[n]) << n;
    EXPECT_EQ(g0.phase(), want_g0[n]) << n;
    EXPECT_EQ(g1.index(), want_index[n]) << n;
    EXPECT_EQ(g1.phase(), want_g1[n]) << n;
  }
}

// --- laws ----------------------------------------------------------------------------------------

template <std::uint32_t D>
void turn_laws() {
  for (std::uint32_t L = 2; L <= 6; ++L)
    for (std::uint32_t g = 0; g < L; ++g) {
      EXPECT_EQ(ordered_sequence_next_group(g, L), (g + 1) % L);
      PipelineState<D> s = ordered_sequence_start_state<D>(g);
      for (std::uint32_t n = 0; n < 7 * D + 3; ++n, ++s) {
        ASSERT_EQ(std::uint32_t(s.index()), n % D) << "D " << D << " g " << g << " n " << n;
        ASSERT_EQ(s.phase(), (n / D + (g == 0 ? 1u : 0u)) % 2u) << "D " << D << " g " << g << " n " << n;
      }
    }
}

TEST(OrderedSequence, ParityFlipsEveryDepthTurns) {
  turn_laws<1>();
  turn_laws<2>();
  turn_laws<3>();
  turn_laws<4>();
  turn_laws<5>();
}

// --- the protocol against a model of the mbarriers -----------------------------------------------

// An mbarrier's phase logic: `completed` phases so far; a wait on parity p
// succeeds iff the phase in progress has the other parity.
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

// One thread of a group, as the device class runs it: wait, (work), arrive.
template <std::uint32_t D>
struct ModelThread {
  std::uint32_t group = 0;
  PipelineState<D> state;
  std::uint32_t turns = 0;  // wait/arrive pairs done
  bool inside = false;      // between a passed wait and its arrive
};

struct Entry {
  std::uint32_t group, round;
  bool operator==(Entry const&) const = default;
};

template <std::uint32_t D>
void run_ordered(std::uint32_t L, int group_size, std::uint32_t rounds, unsigned seed) {
  SCOPED_TRACE(testing::Message() << "Depth " << D << ", Length " << L << ", group_size " << group_size
                                  << ", rounds " << rounds << ", seed " << seed);
  std::vector<ModelBarrier> bar(D * L);  // bar[d * L + g]
  for (auto& b : bar) b.init(group_size);
  std::vector<ModelThread<D>> threads;
  for (std::uint32_t g = 0; g < L; ++g)
    for (int t = 0; t < group_size; ++t) threads.push_back({g, ordered_sequence_start_state<D>(g), 0u, false});
  std::vector<std::vector<Entry>> log(D);     // per stage, one entry per thread passing its wait
  std::vector<int> inside(D, 0);              // threads inside a turn, per stage
  std::vector<std::uint32_t> holder(D, ~0u);  // their group
  std::uint32_t const total = D * rounds;     // wait/arrive pairs per thread
  std::mt19937 rng(seed);
  int idle = 0;
  while (true) {
    bool done = true;
    for (auto const& t : threads) done = done && t.turns == total;
    if (done) break;
    ModelThread<D>& t = threads[rng() % threads.size()];
    bool moved = false;
    if (t.turns < total) {
      std::uint32_t const d = std::uint32_t(t.state.index());
      if (!t.inside) {
        // The phase this wait names: round j = turns / D; group 0 waits for
        // completion j - 1 (none for j = 0), the others for completion j.
        ModelBarrier const& b = bar[d * L + t.group];
        std::int64_t const j = t.turns / D;
        std::int64_t const target = t.group == 0 ? j - 1 : j;
        ASSERT_LE(std::int64_t(b.completed), target + 1) << "a barrier ran two phases ahead of its waiter";
        if (b.test_wait(t.state.phase())) {
          ASSERT_EQ(std::int64_t(b.completed), target + 1) << "a wait passed on the wrong phase";
          if (inside[d] > 0) ASSERT_EQ(holder[d], t.group) << "two groups inside a turn at stage " << d;
          holder[d] = t.group;
          ++inside[d];
          log[d].push_back({t.group, std::uint32_t(j)});
          t.inside = true;
          moved = true;
        }
      } else {
        --inside[d];
        bar[d * L + ordered_sequence_next_group(t.group, L)].arrive();
        ++t.state;
        ++t.turns;
        t.inside = false;
        moved = true;
      }
    }
    idle = moved ? 0 : idle + 1;
    ASSERT_LT(idle, 100000) << "no thread can move: deadlock";
  }
  // Per stage: blocks of group_size entries, (0, 0), (1, 0), ..., (L-1, 0), (0, 1), ...
  for (std::uint32_t d = 0; d < D; ++d) {
    ASSERT_EQ(log[d].size(), std::size_t(L) * rounds * std::size_t(group_size)) << "stage " << d;
    for (std::size_t i = 0; i < log[d].size(); ++i) {
      std::size_t const turn = i / std::size_t(group_size);
      Entry const want{std::uint32_t(turn % L), std::uint32_t(turn / L)};
      ASSERT_EQ(log[d][i], want) << "stage " << d << " entry " << i << ": group " << log[d][i].group << " round "
                                 << log[d][i].round << ", want group " << want.group << " round " << want.round;
    }
  }
  // Every barrier completed once per round: by the group before its owner.
  for (std::uint32_t d = 0; d < D; ++d)
    for (std::uint32_t g = 0; g < L; ++g) EXPECT_EQ(bar[d * L + g].completed, rounds) << "barrier (" << d << "," << g << ")";
}

template <std::uint32_t D>
void sweep(unsigned& seed) {
  for (std::uint32_t L = 2; L <= 6; ++L)
    for (int group_size : {1, 2, 3})
      for (std::uint32_t rounds : {1u, 2u, 9u}) run_ordered<D>(L, group_size, rounds, seed++);
}

TEST(OrderedSequence, TurnsGoInOrderUnderRandomSchedules) {
  unsigned seed = std::random_device{}();
  for (int repeat = 0; repeat < 3; ++repeat) {
    sweep<1>(seed);
    sweep<2>(seed);
    sweep<3>(seed);
    sweep<5>(seed);
  }
}

}  // namespace
