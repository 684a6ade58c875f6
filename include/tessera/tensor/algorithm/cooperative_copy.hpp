// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// cooperative_copy<NumThreads, MaxVecBits>(tid, src, dst): NumThreads threads
// (tid in [0, NumThreads)) copy src into dst together, each a strided share
// of vectors, with no partitioning set up by the caller -- CuTe's name for
// "the whole block moves this tile":
//
//   cooperative_copy<128>(threadIdx.x, gA_tile, sA);   // gmem -> swizzled smem
//   __syncthreads();
//
// Vectors are as wide as copy() would make them (runs contiguous in both
// layouts, a swizzle's 2^M-element rows, at most MaxVecBits bits), checked
// per vector against the two addresses: a vector whose addresses are not
// aligned to its width (a leading dimension that is not a multiple of it, a
// base offset by one element) is copied element by element, so any shape,
// stride and pointer alignment gives the right result.
//
// @pre size(src) == size(dst); every tid in [0, NumThreads) calls it
// @law after all NumThreads calls: dst(i) == src(i) for every i < size(dst)
// @law thread tid writes only its share: indices of vectors tid, tid + NumThreads, ...

#include <cstdint>
#include <type_traits>

#include "tessera/config.hpp"
#include "tessera/tensor/algorithm/copy.hpp"

namespace tessera {

namespace detail {

template <int NumThreads, class SrcTensor, class DstTensor>
TESSERA_HOST_DEVICE void cooperative_copy_elementwise(std::uint32_t tid, SrcTensor const& src, DstTensor& dst) {
  using DT = typename std::remove_cvref_t<DstTensor>::value_type;
  int const n = int(size(dst.layout()));
  for (int i = int(tid); i < n; i += NumThreads) dst(i) = static_cast<DT>(src(i));
}

// Plain layouts on both sides: vectors of V elements in copy()'s walk order.
template <int NumThreads, int MaxVecBits, class SrcTensor, class DstTensor>
TESSERA_HOST_DEVICE void cooperative_copy_plain(std::uint32_t tid, SrcTensor const& src, DstTensor& dst) {
  using Src = std::remove_cvref_t<SrcTensor>;
  using Dst = std::remove_cvref_t<DstTensor>;
  using T = typename Src::value_type;
  if constexpr (refinement_holder<typename Src::layout_type, typename Dst::layout_type>::value.ok) {
    // different static flat shapes: walk their common refinement (see copy())
    auto refined = refined_pair(src, dst);
    cooperative_copy_plain<NumThreads, MaxVecBits>(tid, get<0>(refined), get<1>(refined));
    return;
  } else {
  constexpr int kWidest = static_vector_width<Src, Dst>();
  constexpr int kCap = MaxVecBits / (8 * int(sizeof(T))) > 0 ? MaxVecBits / (8 * int(sizeof(T))) : 1;
  constexpr int V = kWidest < kCap ? kWidest : kCap;
  if constexpr (V == 1) {
    cooperative_copy_elementwise<NumThreads>(tid, src, dst);
  } else {
    using VecT = typename copy_vec<int(sizeof(T)) * V>::type;
    using PlanHolder = plan_holder<typename Src::layout_type, typename Dst::layout_type>;
    constexpr int N = tuple_size_v<flat_shape_t<typename Src::layout_type>>;
    auto const sl = plan_layout<PlanHolder, N>(src.layout());
    auto const dl = plan_layout<PlanHolder, N>(dst.layout());
    int const n = int(size(dst.layout()));
    int const vectors = n / V;
    for (int c = int(tid); c < vectors; c += NumThreads) {
      int const j = c * V;
      auto* s = raw_pointer_cast(src.data() + sl(j));
      auto* d = raw_pointer_cast(dst.data() + dl(j));
      if (address_aligned(s, sizeof(VecT)) && address_aligned(d, sizeof(VecT))) {
        move_vector<VecT>(s, d);
      } else {
        TESSERA_UNROLL
        for (int e = 0; e < V; ++e) *(dst.data() + dl(j + e)) = *(src.data() + sl(j + e));
      }
    }
    // the tail past the last whole vector (a run that does not divide n)
    for (int i = vectors * V + int(tid); i < n; i += NumThreads) *(dst.data() + dl(i)) = *(src.data() + sl(i));
  }
  }
}

}  // namespace detail

template <int NumThreads, int MaxVecBits = 128, class SE, class SL, class DstTensor>
  requires is_tensor_v<DstTensor>
TESSERA_HOST_DEVICE void cooperative_copy(std::uint32_t tid, Tensor<SE, SL> const& src, DstTensor&& dst) {
  static_assert(NumThreads > 0, "cooperative_copy: NumThreads must be positive");
  static_assert(MaxVecBits == 8 || MaxVecBits == 16 || MaxVecBits == 32 || MaxVecBits == 64 || MaxVecBits == 128,
                "cooperative_copy: MaxVecBits must be 8, 16, 32, 64 or 128");
  using Src = Tensor<SE, SL>;
  using Dst = std::remove_cvref_t<DstTensor>;
  if constexpr (is_static_v<decltype(size(src.layout()))> && is_static_v<decltype(size(dst.layout()))>) {
    static_assert(decltype(size(src.layout()))::value == decltype(size(dst.layout()))::value,
                  "cooperative_copy: src and dst have different sizes");
  } else {
    TESSERA_ASSERT(int(size(src.layout())) == int(size(dst.layout())));
  }
  TESSERA_ASSERT(tid < std::uint32_t(NumThreads));
  if constexpr (detail::is_composed<typename Src::layout_type>::value ||
                detail::is_composed<typename Dst::layout_type>::value) {
    // A swizzled side: through the swizzle_ptr form (plain layouts whose
    // vectors stay inside the swizzle's rows) when the smem base is aligned
    // to the swizzle period, element by element otherwise -- as copy() does.
    if constexpr (detail::composed_copy_convertible<Src>() && detail::composed_copy_convertible<Dst>()) {
      if (detail::composed_copy_aligned(src) && detail::composed_copy_aligned(dst)) {
        auto sv = detail::composed_copy_view(src);
        auto dv = detail::composed_copy_view(dst);
        detail::cooperative_copy_plain<NumThreads, MaxVecBits>(tid, sv, dv);
        return;
      }
    }
    detail::cooperative_copy_elementwise<NumThreads>(tid, src, dst);
  } else {
    detail::cooperative_copy_plain<NumThreads, MaxVecBits>(tid, src, dst);
  }
}

}  // namespace tessera
