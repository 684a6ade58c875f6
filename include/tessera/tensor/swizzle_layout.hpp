// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Swizzled tensors the way CuTe keeps them: the tensor holds
// ComposedLayout(Swizzle o offset o L) over a plain pointer, and a slice at a
// fixed (thread) coordinate turns back into a plain Layout when that is exact.
//
//   swizzle_split(sw, L)     L with every leaf that crosses the swizzle's bits
//                            cut into one-bit modes, same function
//   swizzle_decay(sw, o, L)  plain layout P and integer p with
//                            sw(o + L(c)) == p + P(c) for every c, if one exists
//
// Sw<B,M,S> (S > 0) xors the yyy bits [M+S, M+S+B) into the zzz bits [M, M+B).
// Over GF(2) it is linear: Sw(a ^ b) == Sw(a) ^ Sw(b). So, when the slice's
// offset o and the leaves of L use pairwise disjoint bits (no carries: + is ^)
// and the swizzled images of the leaves are disjoint too, Sw(o + L(c)) - Sw(o)
// is the sum over leaves of Sw(o ^ x_i) - Sw(o): linear in c. A leaf of size 2
// that touches yyy or zzz gets the stride Sw(o + s) - Sw(o), a run-time value
// when o is (seed 000's tXsA: (_2,_2):(144,288) for thread 0); a leaf clear of
// yyy and zzz keeps its static stride. Larger leaves that touch the swizzle's
// bits are not linear, hence swizzle_split before partitioning: the tilers then
// leave one-bit modes in the slice (tXsA's k-blocks (_2,_2), tCrA's (_2,_2,_2)).
// Leaves entirely above the swizzle period are written (_1,n):(_0,s), the
// (_1,_3):(_0,_8192) pipe mode seed 000 prints; a tiler that divides such a mode
// drops the _1 again.

#include <cstdint>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"

namespace tessera {

namespace detail {

template <class SwizzleT>
struct swizzle_bits;
template <int B, int M, int S>
struct swizzle_bits<Swizzle<B, M, S>> {
  static constexpr long long yyy = Swizzle<B, M, S>::yyy_msk::value;
  static constexpr long long zzz = Swizzle<B, M, S>::zzz_msk::value;
  static constexpr int top = M + B + (S > 0 ? S : -S);  // period 2^top
  static constexpr long long apply(long long x) {
    long long const y = x & yyy;
    return x ^ (S >= 0 ? (y >> S) : (y << -S));
  }
};

constexpr bool is_pow2(long long x) { return x > 0 && (x & (x - 1)) == 0; }
constexpr int log2_of(long long x) {
  int r = 0;
  while ((1LL << r) < x) ++r;
  return r;
}

// Bits any value k*s (0 <= k < n) can set.
constexpr long long value_mask(long long n, long long s) {
  long long m = 0;
  for (long long k = 1; k < n; ++k) m |= k * s;
  return m;
}

struct leaf_pieces {
  int count = 0;  // 0: keep the leaf as it is
  long long size[64] = {};
  long long stride[64] = {};
};

// How swizzle_split cuts one static leaf n:s.
template <class SwizzleT>
constexpr leaf_pieces split_leaf(long long n, long long s) {
  using Sb = swizzle_bits<SwizzleT>;
  leaf_pieces p;
  if (n <= 1 || s <= 0) return p;
  if (!is_pow2(n) || !is_pow2(s)) return p;
  int const lo = log2_of(s), hi = lo + log2_of(n);
  long long const region = Sb::yyy | Sb::zzz;
  int b = lo;
  while (b < hi) {
    if ((region >> b) & 1) {
      p.size[p.count] = 2;
      p.stride[p.count] = 1LL << b;
      ++p.count;
      ++b;
    } else {
      int e = b;
      while (e < hi && !((region >> e) & 1)) ++e;
      p.size[p.count] = 1LL << (e - b);
      p.stride[p.count] = 1LL << b;
      ++p.count;
      b = e;
    }
  }
  if (p.count == 1) p.count = 0;
  return p;
}

template <class SwizzleT, class ShapeT, class StrideT>
TESSERA_HOST_DEVICE constexpr auto split_mode(ShapeT const& shape, StrideT const& stride) {
  if constexpr (is_tuple_v<ShapeT>) {
    return [&]<int... I>(seq<I...>) {
      return make_tuple(make_tuple(get<0>(split_mode<SwizzleT>(get<I>(shape), get<I>(stride)))...),
                        make_tuple(get<1>(split_mode<SwizzleT>(get<I>(shape), get<I>(stride)))...));
    }(tuple_seq<ShapeT>{});
  } else if constexpr (is_static_v<ShapeT> && is_static_v<StrideT>) {
    constexpr leaf_pieces p = split_leaf<SwizzleT>(ShapeT::value, StrideT::value);
    if constexpr (p.count == 0) {
      return make_tuple(shape, stride);
    } else {
      return [&]<int... I>(seq<I...>) {
        return make_tuple(make_tuple(Int<int(p.size[I])>{}...), make_tuple(Int<int(p.stride[I])>{}...));
      }(make_seq<p.count>{});
    }
  } else {
    return make_tuple(shape, stride);
  }
}

// ---- decay analysis --------------------------------------------------------

struct decay_plan {
  bool ok = false;
  int n = 0;
  bool swizzled[64] = {};  // leaf gets the run-time stride Sw(o + s) - Sw(o)
};

template <class SwizzleT>
constexpr decay_plan plan_decay(long long offset_mask, int n, long long const* size, long long const* stride) {
  using Sb = swizzle_bits<SwizzleT>;
  decay_plan d;
  d.n = n;
  long long used = offset_mask;
  long long images = 0;
  for (int i = 0; i < n; ++i) {
    if (size[i] == 1) continue;
    if (stride[i] < 0) return d;
    long long const m = value_mask(size[i], stride[i]);
    if (m & used) return d;
    used |= m;
    long long image = m;
    if (m & (Sb::yyy | Sb::zzz)) {
      if (size[i] != 2) return d;
      d.swizzled[i] = true;
      image = m | Sb::apply(m);
    }
    if (image & images) return d;
    images |= image;
  }
  // The offset's own image may sit in zzz, where the swizzled leaves change
  // bits: covered by the sum-of-differences argument, nothing to check.
  d.ok = true;
  return d;
}

template <class T>
struct static_leaves;
template <class... T>
struct static_leaves<tuple<T...>> {
  static constexpr bool all_static = (is_static_v<T> && ...);
};

template <class L>
constexpr long long layout_value_mask_or_all(bool& disjoint) {
  using FS = decltype(flatten(std::declval<typename L::shape_type>()));
  using FD = decltype(flatten(std::declval<typename L::stride_type>()));
  long long m = 0;
  disjoint = true;
  [&]<int... I>(seq<I...>) {
    (([&] {
       long long const n = std::remove_cvref_t<decltype(get<I>(std::declval<FS>()))>::value;
       long long const s = std::remove_cvref_t<decltype(get<I>(std::declval<FD>()))>::value;
       if (n == 1) return;
       if (s < 0) {
         disjoint = false;
         return;
       }
       long long const v = value_mask(n, s);
       if (v & m) disjoint = false;
       m |= v;
     }()),
     ...);
  }(tuple_seq<FS>{});
  return m;
}

template <class L>
inline constexpr bool layout_is_static_v = is_static_v<typename L::shape_type> && is_static_v<typename L::stride_type>;

}  // namespace detail

// L with the leaves that cross the swizzle's bits cut into one-bit modes.
// @post swizzle_split(sw, L)(c) == L(c) for every index c (same function, finer shape)
template <int B, int M, int S, class ShapeT, class StrideT>
TESSERA_HOST_DEVICE constexpr auto swizzle_split(Swizzle<B, M, S> const&, Layout<ShapeT, StrideT> const& l) {
  auto ss = detail::split_mode<Swizzle<B, M, S>>(l.shape(), l.stride());
  return make_layout(get<0>(ss), get<1>(ss));
}

// swizzle_split inside a swizzled composed layout; any other layout as it is.
// TiledCopy/TiledMMA partitions apply it before tiling, so that a thread's
// slice decays to a plain layout.
template <class L>
TESSERA_HOST_DEVICE constexpr auto swizzle_split_layout(L const& l) {
  if constexpr (is_composed_layout_v<L>) {
    if constexpr (is_swizzle_v<std::remove_cvref_t<decltype(l.layout_a())>>) {
      return composition(l.layout_a(), l.offset(), swizzle_split(l.layout_a(), l.layout_b()));
    } else {
      return l;
    }
  } else {
    return l;
  }
}

// Whether slicing Sw o offset o layout_b at a coordinate whose fixed part is
// `Diced` (the layout of the modes the coordinate fixes), leaving `Sliced`,
// can become a plain layout. Static check; everything must be static.
template <class SwizzleT, class StaticOffset, class Diced, class Sliced>
constexpr detail::decay_plan swizzle_decay_plan() {
  if constexpr (!detail::layout_is_static_v<Diced> || !detail::layout_is_static_v<Sliced> ||
                !is_static_v<StaticOffset>) {
    return detail::decay_plan{};
  } else {
    bool disjoint = true;
    long long mask = detail::layout_value_mask_or_all<Diced>(disjoint);
    if (!disjoint) return detail::decay_plan{};
    long long const o = StaticOffset::value;
    if (o < 0 || (o & mask)) return detail::decay_plan{};
    mask |= o;
    using FS = decltype(flatten(std::declval<typename Sliced::shape_type>()));
    using FD = decltype(flatten(std::declval<typename Sliced::stride_type>()));
    constexpr int n = tuple_size_v<FS>;
    long long size[n > 0 ? n : 1] = {};
    long long stride[n > 0 ? n : 1] = {};
    [&]<int... I>(seq<I...>) {
      ((size[I] = std::remove_cvref_t<decltype(get<I>(std::declval<FS>()))>::value), ...);
      ((stride[I] = std::remove_cvref_t<decltype(get<I>(std::declval<FD>()))>::value), ...);
    }(make_seq<n>{});
    return detail::plan_decay<SwizzleT>(mask, n, size, stride);
  }
}

namespace detail {
// Sliced layout with the planned leaves' strides replaced by Sw(t + s) - Sw(t).
template <class SwizzleT, decay_plan plan, class Sliced, class Offset>
TESSERA_HOST_DEVICE constexpr auto apply_decay(Sliced const& sliced, Offset const& t) {
  auto const sw_t = SwizzleT::apply(t);
  auto fd = flatten(sliced.stride());
  auto new_fd = [&]<int... I>(seq<I...>) {
    return make_tuple([&] {
      if constexpr (plan.swizzled[I]) {
        if constexpr (is_static_v<Offset>) {
          return Int<int(SwizzleT::apply(Offset::value + std::remove_cvref_t<decltype(get<I>(fd))>::value) - SwizzleT::apply(Offset::value))>{};
        } else {
          return int(SwizzleT::apply(t + get<I>(fd)) - sw_t);
        }
      } else {
        return get<I>(fd);
      }
    }()...);
  }(tuple_seq<decltype(fd)>{});
  if constexpr (is_tuple_v<std::remove_cvref_t<decltype(sliced.stride())>>) {
    return make_layout(sliced.shape(), unflatten(new_fd, sliced.stride()));
  } else {
    return make_layout(sliced.shape(), get<0>(new_fd));
  }
}
}  // namespace detail

}  // namespace tessera
