// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// prefetch(gT): asks L2 for every 128-byte line that the elements of a
// global-memory tensor touch, one prefetch.global.L2 per line (CuTe's
// prefetch of a plain global tensor; prefetch(tma, coord) in
// tma/tma_copy.hpp is the TMA form). A hint: no value changes and nothing
// waits. On the host it does nothing, so code calling it still runs there.
//
//   prefetch(gA(_, _, k + 1));   // the next K tile, while this one computes
//   prefetch(gB(_, _, k + 1), L2Eviction::last);   // the same, kept in L2 ahead of other lines (sm_80+)
//
// The lines come from for_each_cache_line<kElementBits>(layout, bit_address,
// f), host-callable, which calls f(line) with each line's byte address:
//   - a Layout with static shape and stride: its modes sorted by stride
//     (stride-0 modes dropped) and coalesced, then walked in that order with
//     the leading stride-1 mode as one contiguous run. When the sorted walk
//     is address-ordered -- non-negative strides, each at least the span of
//     the smaller modes, as in row- and column-major tiles, padded tiles and
//     tiles of larger matrices -- every line is passed exactly once.
//   - any other layout (run-time strides, swizzled): coalesced where that is
//     static and walked in index order, a leading stride-_1 mode as one run,
//     every other element on its own. A line is skipped when it is the line
//     just passed, so a walk that leaves a line and comes back passes it again.
// @post f sees every line some element touches, and no other line; two
//       consecutive calls never pass the same line
// @post each line once when the walk is address-ordered (above)
// @pre  prefetch: the tensor is in global memory (make_gmem_ptr); checked
//       at compile time

#include <array>
#include <cstdint>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/core/recast.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/pointer.hpp"
#include "tessera/tensor/subbyte.hpp"
#include "tessera/tensor/tensor_impl.hpp"

#if defined(__CUDACC__)
#include <tessera/arch/sm80/prefetch.cuh>
#endif

namespace tessera {

// The line prefetch.global.L2 asks for: L2's 128-byte line.
inline constexpr int kCacheLineBytes = 128;

namespace detail {

inline constexpr std::uint64_t kCacheLineBits = std::uint64_t(kCacheLineBytes) * 8;

// The address of an iterator's first element, in bits (byte address * 8,
// plus the bit position of a packed sub-byte element).
template <class T>
TESSERA_HOST_DEVICE std::uint64_t bit_address(T* p) {
  return std::uint64_t(reinterpret_cast<std::uintptr_t>(p)) * 8;
}
template <class T>
TESSERA_HOST_DEVICE std::uint64_t bit_address(subbyte_iterator<T> const& it) {
  return std::uint64_t(reinterpret_cast<std::uintptr_t>(it.byte_)) * 8 +
         std::uint64_t(it.slot_) * std::uint64_t(std::remove_cv_t<T>::kBits);
}
template <class P, class Tag>
TESSERA_HOST_DEVICE std::uint64_t bit_address(tagged_ptr<P, Tag> const& p) {
  return bit_address(p.get());
}

// The order of a static flat layout's modes by stride (stable).
template <class FlatStride, int... I>
constexpr std::array<int, sizeof...(I)> stride_order(seq<I...>) {
  constexpr int R = int(sizeof...(I));
  std::array<long long, R> const d = {static_cast<long long>(std::remove_cvref_t<decltype(get<I>(FlatStride{}))>::value)...};
  std::array<int, R> order = {I...};
  for (int i = 1; i < R; ++i)
    for (int j = i; j > 0 && d[order[j - 1]] > d[order[j]]; --j) {
      int const t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  return order;
}

// A static layout's image walked in address order where it can be: the
// modes without stride 0, sorted by stride, coalesced.
// @post the image of the result is the image of l
template <class S, class D>
TESSERA_HOST_DEVICE constexpr auto sorted_by_stride(Layout<S, D> const& l) {
  using F = decltype(filter(l));
  using FS = decltype(wrap(F{}.shape()));
  using FD = decltype(wrap(F{}.stride()));
  constexpr int R = tuple_size_v<FS>;
  constexpr std::array<int, R> order = stride_order<FD>(make_seq<R>{});
  return [&]<int... I>(seq<I...>) {
    return coalesce(make_layout(make_shape(get<order[I]>(FS{})...), make_stride(get<order[I]>(FD{})...)));
  }(make_seq<R>{});
}

// Calls f(line) for the lines of runs of `run` contiguous elements starting
// at elements rest(0), rest(1), ..., skipping the line just passed.
template <int kElementBits, class RestLayout, class Run, class F>
TESSERA_HOST_DEVICE void for_each_line_of_runs(RestLayout const& rest, Run const& run, std::uint64_t base_bits, F& f) {
  std::uint64_t const run_bits = std::uint64_t(run) * std::uint64_t(kElementBits);
  std::uint64_t last = ~std::uint64_t(0);  // no line: line indices stay below 2^61
  int const n = int(size(rest));
  for (int r = 0; r < n; ++r) {
    std::uint64_t const lo = base_bits + std::uint64_t(static_cast<std::int64_t>(rest(r)) * kElementBits);
    std::uint64_t const final_line = (lo + run_bits - 1) / kCacheLineBits;
    for (std::uint64_t line = lo / kCacheLineBits; line <= final_line; ++line) {
      if (line != last) {
        f(std::uintptr_t(line * std::uint64_t(kCacheLineBytes)));
        last = line;
      }
    }
  }
}

// The same over a flat layout (depth <= 1) walked in index order: a leading
// mode of stride _1 is one run, otherwise each element is.
template <int kElementBits, class S, class D, class F>
TESSERA_HOST_DEVICE void for_each_line_of_flat(Layout<S, D> const& walk, std::uint64_t base_bits, F& f) {
  auto const shape_w = wrap(walk.shape());
  auto const stride_w = wrap(walk.stride());
  constexpr int R = tuple_size_v<std::remove_cvref_t<decltype(shape_w)>>;
  if constexpr (R == 1 && is_constant_v<1, std::remove_cvref_t<decltype(get<0>(stride_w))>>) {
    for_each_line_of_runs<kElementBits>(Layout<Int<1>, Int<0>>{}, get<0>(shape_w), base_bits, f);
  } else if constexpr (is_constant_v<1, std::remove_cvref_t<decltype(get<0>(stride_w))>>) {
    for_each_line_of_runs<kElementBits>(make_layout(take<1, R>(shape_w), take<1, R>(stride_w)), get<0>(shape_w),
                                        base_bits, f);
  } else {
    for_each_line_of_runs<kElementBits>(walk, Int<1>{}, base_bits, f);
  }
}

}  // namespace detail

// Calls f(line), line a std::uintptr_t byte address aligned to
// kCacheLineBytes, for the lines touched by elements of kElementBits bits
// at bit address base_bits + layout(i) * kElementBits; the walk the header
// comment describes.
template <int kElementBits, class LayoutT, class F>
TESSERA_HOST_DEVICE void for_each_cache_line(LayoutT const& layout, std::uint64_t base_bits, F&& f) {
  static_assert(kElementBits > 0, "for_each_cache_line: an element has at least one bit");
  if constexpr (detail::is_plain_layout<LayoutT>::value && is_static_v<LayoutT>) {
    detail::for_each_line_of_flat<kElementBits>(detail::sorted_by_stride(layout), base_bits, f);
  } else if constexpr (detail::is_plain_layout<LayoutT>::value) {
    detail::for_each_line_of_flat<kElementBits>(coalesce(layout), base_bits, f);
  } else {
    detail::for_each_line_of_runs<kElementBits>(layout, Int<1>{}, base_bits, f);
  }
}

// The L2 eviction priority a prefetch asks for its lines: `normal`
// (prefetch.global.L2::evict_normal) or `last` (prefetch.global.L2::evict_last:
// kept ahead of normal lines, e.g. a tile every CTA of a wave reads). Both
// sm_80+ (PTX 7.4). prefetch(gT) without one is plain prefetch.global.L2.
enum class L2Eviction { normal, last };

namespace detail {

// The walk both prefetch forms share. hint: 0 plain prefetch.global.L2,
// 1 ::evict_normal, 2 ::evict_last (a constant at every call, folded).
template <class Engine, class LayoutT>
TESSERA_HOST_DEVICE void prefetch_lines(Tensor<Engine, LayoutT> const& t, int hint) {
  using Iter = std::remove_cvref_t<decltype(t.data())>;
  static_assert(is_gmem_v<Iter>,
                "prefetch: the tensor is not in global memory [make_tensor(make_gmem_ptr(p), layout); "
                "prefetch.global.L2 takes global addresses, and shared memory or registers need no prefetch]");
#if defined(__CUDA_ARCH__)
  for_each_cache_line<int(sizeof_bits_v<typename Tensor<Engine, LayoutT>::value_type>)>(
      t.layout(), bit_address(t.data()), [hint](std::uintptr_t line) {
        void const* const p = reinterpret_cast<void const*>(line);
        if (hint == 2) arch::prefetch_l2_evict_last(p);
        else if (hint == 1) arch::prefetch_l2_evict_normal(p);
        else arch::prefetch_l2(p);
      });
#else
  (void)t;
  (void)hint;
#endif
}

}  // namespace detail

// Every 128-byte line of global memory the tensor's elements touch, asked
// of L2 (prefetch.global.L2, one per line); nothing on the host.
template <class Engine, class LayoutT>
TESSERA_HOST_DEVICE void prefetch(Tensor<Engine, LayoutT> const& t) {
  detail::prefetch_lines(t, 0);
}

// The same with an L2 eviction priority: prefetch(gA(_, _, k + 1), L2Eviction::last).
template <class Engine, class LayoutT>
TESSERA_HOST_DEVICE void prefetch(Tensor<Engine, LayoutT> const& t, L2Eviction evict) {
  detail::prefetch_lines(t, evict == L2Eviction::last ? 2 : 1);
}

}  // namespace tessera
