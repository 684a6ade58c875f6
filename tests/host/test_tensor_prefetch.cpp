// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// for_each_cache_line, the line walk behind prefetch(gT), against brute force
// (every element's first and last bit, each line between): the lines passed
// are exactly the touched ones, never the same line twice in a row, and for
// address-ordered static layouts each line once, in ascending order. Over
// fixed static layouts (tiles, padded tiles, sub-tiles of larger matrices,
// nested modes, broadcast modes, an unordered and a negative-stride one), a
// swizzled layout, sub-byte elements at a bit offset, and a generated corpus
// of run-time layouts, each at several base addresses. prefetch itself is a
// no-op on the host: it compiles and leaves the tensor as it was.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <tessera/tensor.hpp>

#include "host_test.hpp"

using namespace tessera;

namespace {

constexpr std::uint64_t kLineBits = 8 * kCacheLineBytes;

// Byte bases: aligned to a line, one element past it, just below the next
// line, and odd offsets.
std::vector<std::uint64_t> const kBaseBytes = {0x10000, 0x10004, 0x1007c, 0x100c8, 0x12345 & ~std::uint64_t(3)};

template <int kBits, class L>
std::set<std::uintptr_t> brute_force_lines(L const& layout, std::uint64_t base_bits) {
  std::set<std::uintptr_t> lines;
  for (int i = 0; i < int(size(layout)); ++i) {
    std::uint64_t const lo = base_bits + std::uint64_t(std::int64_t(layout(i)) * kBits);
    for (std::uint64_t l = lo / kLineBits; l <= (lo + kBits - 1) / kLineBits; ++l)
      lines.insert(std::uintptr_t(l * kCacheLineBytes));
  }
  return lines;
}

template <int kBits, class L>
std::vector<std::uintptr_t> walked_lines(L const& layout, std::uint64_t base_bits) {
  std::vector<std::uintptr_t> lines;
  for_each_cache_line<kBits>(layout, base_bits, [&](std::uintptr_t line) { lines.push_back(line); });
  return lines;
}

// The laws every walk keeps, and with `exact` each line once in ascending order.
template <int kBits, class L>
void check_walk(L const& layout, std::uint64_t base_bits, bool exact) {
  SCOPED_TRACE(test::str(layout) + " at bit " + std::to_string(base_bits) + ", " + std::to_string(kBits) + "-bit elements");
  auto const want = brute_force_lines<kBits>(layout, base_bits);
  auto const got = walked_lines<kBits>(layout, base_bits);
  for (std::uintptr_t line : got) ASSERT_EQ(line % kCacheLineBytes, 0u);
  EXPECT_EQ(std::set<std::uintptr_t>(got.begin(), got.end()), want) << "not the touched lines";
  EXPECT_EQ(std::adjacent_find(got.begin(), got.end()), got.end()) << "a line passed twice in a row";
  if (exact) {
    EXPECT_EQ(got.size(), want.size()) << "a line passed more than once";
    EXPECT_TRUE(std::is_sorted(got.begin(), got.end())) << "not in address order";
  }
}

template <int kBits, class L>
void check_at_every_base(L const& layout, bool exact) {
  for (std::uint64_t b : kBaseBytes) check_walk<kBits>(layout, 8 * b, exact);
}

}  // namespace

TEST(PrefetchLines, StaticTilesEachLineOnce) {
  check_at_every_base<32>(Layout<Shape<_128, _64>, Stride<_64, _1>>{}, true);     // row-major
  check_at_every_base<32>(Layout<Shape<_128, _64>, Stride<_1, _128>>{}, true);    // column-major
  check_at_every_base<32>(Layout<Shape<_32, _16>, Stride<_4096, _1>>{}, true);    // tile of a 4096-wide matrix
  check_at_every_base<32>(Layout<Shape<_16, _32>, Stride<_1, _40>>{}, true);      // padded leading dimension
  check_at_every_base<16>(Layout<Shape<_8, _8>, Stride<_8, _1>>{}, true);
  check_at_every_base<64>(Layout<Shape<_8, _3>, Stride<_96, _1>>{}, true);        // runs shorter than a line
  check_at_every_base<32>(Layout<Shape<Shape<_2, _4>, Shape<_8, _2>>, Stride<Stride<_1, _16>, Stride<_2, _64>>>{},
                          true);  // nested modes, strides out of order
  check_at_every_base<32>(Layout<Shape<_64, _4>, Stride<_1, _0>>{}, true);        // a broadcast mode
  check_at_every_base<32>(Layout<Shape<_4, _4>, Stride<_0, _0>>{}, true);         // every element at the base
  check_at_every_base<1024>(Layout<Shape<_4, _2>, Stride<_2, _1>>{}, true);       // elements of a whole line
}

TEST(PrefetchLines, StaticLayoutsThatAreNotAddressOrdered) {
  // Sorted by stride, (3,5):(5,2) still interleaves: 2-strided runs of 5
  // reach past the next mode's stride.
  check_at_every_base<512>(Layout<Shape<_3, _5>, Stride<_5, _2>>{}, false);
  check_at_every_base<32>(Layout<Shape<_32, _8>, Stride<_1, _16>>{}, false);  // overlapping modes
  check_walk<32>(Layout<Shape<_64, _4>, Stride<C<-1>, _64>>{}, 8 * 0x20000, false);  // a negative stride
}

TEST(PrefetchLines, SwizzledLayout) {
  auto sw = composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{});
  check_at_every_base<32>(sw, false);
}

TEST(PrefetchLines, SubbyteElementsAtABitOffset) {
  check_walk<4>(Layout<Shape<_512>>{}, 8 * 0x10000 + 4, true);  // a 4-bit element's second slot
  check_walk<4>(Layout<Shape<_16, _64>, Stride<_64, _1>>{}, 8 * 0x1007f + 4, true);
  check_walk<4>(make_layout(make_shape(64, 16), make_stride(_1{}, 300)), 8 * 0x10001 + 4, true);
}

// Run-time layouts walk in index order: exact when column-major with
// increasing strides (stride _1 first), every line at least once otherwise.
TEST(PrefetchLines, RuntimeLayoutsGeneratedCorpus) {
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<int> ext(1, 40), pick(0, 5);
  for (int c = 0; c < 300; ++c) {
    int const m = ext(rng), n = ext(rng), k = 1 + ext(rng) % 4;
    int const ld = m + pick(rng) * 7;          // >= m: columns do not overlap
    std::uint64_t const base = 8 * kBaseBytes[std::size_t(c) % kBaseBytes.size()];
    check_walk<32>(make_layout(make_shape(m, n), make_stride(_1{}, ld)), base, true);
    check_walk<16>(make_layout(make_shape(m, n, k), make_stride(_1{}, ld, ld * n)), base, true);
    check_walk<32>(make_layout(make_shape(m, n), make_stride(ld, 1)), base, false);  // row-major, walked by column
    int const s0 = pick(rng) - 2, s1 = 3 * (pick(rng) - 2);                         // negative and zero strides
    check_walk<64>(make_layout(make_shape(m, n), make_stride(s0, s1)), base + 8 * 0x1000, false);
  }
}

TEST(Prefetch, HostCallIsANoOp) {
  std::vector<float> v = test::random_floats(64 * 16, 13);
  std::vector<float> const before = v;
  auto g = make_tensor(make_gmem_ptr(v.data()), make_shape(64, 16), make_stride(_1{}, 64));
  prefetch(g);
  prefetch(g(_, 3));
  prefetch(make_tensor(make_gmem_ptr<int4b_t>(static_cast<void*>(v.data())), make_shape(_128{})));
  // The eviction-priority forms compile on the host and do nothing there too.
  prefetch(g, L2Eviction::last);
  prefetch(g(_, 3), L2Eviction::normal);
  EXPECT_EQ(v, before);
}
