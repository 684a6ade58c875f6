// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// copy(src, dst)            element-wise, vectorised up to 128-bit accesses when
//                           both layouts and both pointers allow it
// copy_if(pred, src, dst)   element i copied iff pred(i)
// copy(atom, src, dst)      src/dst shaped (V, REST...): atom.call(src(_,r), dst(_,r))
//                           for every r -- works for a Copy_Atom and a TiledCopy
// copy_if(atom, pred, src, dst)  the same, rest-coordinate r predicated by pred(r)
//
// @law after copy(src, dst): dst(i) == src(i) for every i < size(dst)

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/tensor_impl.hpp"
#include "tessera/tensor/partition.hpp"

namespace tessera {

namespace detail {
struct alignas(16) copy_vec128 {
  std::uint64_t lo, hi;
};
template <int Bytes> struct copy_vec;
template <> struct copy_vec<1> { using type = std::uint8_t; };
template <> struct copy_vec<2> { using type = std::uint16_t; };
template <> struct copy_vec<4> { using type = std::uint32_t; };
template <> struct copy_vec<8> { using type = std::uint64_t; };
template <> struct copy_vec<16> { using type = copy_vec128; };

template <class Iter>
concept addressable_iterator = requires(Iter const& it) {
  { raw_pointer_cast(it) };
  requires std::is_pointer_v<decltype(raw_pointer_cast(it))>;
};

// Widest power-of-two element count V such that every run of V consecutive
// indices is contiguous in both layouts (max_common_vector), V * sizeof(T) <= 16
// bytes, and the swizzle of either pointer keeps V elements together.
template <class SrcTensor, class DstTensor>
constexpr int static_vector_width() {
  using ST = typename SrcTensor::value_type;
  using DT = typename DstTensor::value_type;
  using SI = typename SrcTensor::iterator;
  using DI = typename DstTensor::iterator;
  if constexpr (!std::is_same_v<ST, DT> || !std::is_trivially_copyable_v<ST> || !addressable_iterator<SI> ||
                !addressable_iterator<DI>) {
    return 1;
  } else {
    using Common = decltype(max_common_vector(std::declval<typename SrcTensor::layout_type>(),
                                              std::declval<typename DstTensor::layout_type>()));
    if constexpr (!is_static<Common>::value) {
      return 1;
    } else {
      constexpr int common = int(Common::value);
      constexpr int max_elems = 16 / int(sizeof(ST)) > 0 ? 16 / int(sizeof(ST)) : 1;
      constexpr int run = swizzle_run<SI>::value < swizzle_run<DI>::value ? swizzle_run<SI>::value
                                                                          : swizzle_run<DI>::value;
      int v = 1;
      while (v * 2 <= max_elems && v * 2 <= run && common % (v * 2) == 0 && (sizeof(ST) * v * 2) <= 16) v *= 2;
      return v;
    }
  }
}

template <class T>
TESSERA_HOST_DEVICE bool address_aligned(T const* p, std::uintptr_t bytes) {
  return (reinterpret_cast<std::uintptr_t>(p) & (bytes - 1)) == 0;
}

template <class VecT, class T>
TESSERA_HOST_DEVICE void move_vector(T const* s, T* d) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<VecT*>(d) = *reinterpret_cast<VecT const*>(s);
#else
  std::memcpy(static_cast<void*>(d), static_cast<void const*>(s), sizeof(VecT));
#endif
}

template <class SrcTensor, class DstTensor>
TESSERA_HOST_DEVICE void copy_elementwise(SrcTensor const& src, DstTensor& dst) {
  using DT = typename std::remove_cvref_t<DstTensor>::value_type;
  int const n = int(size(dst.layout()));
  TESSERA_UNROLL
  for (int i = 0; i < n; ++i) {
    dst(i) = static_cast<DT>(src(i));
  }
}
}  // namespace detail

template <class SE, class SL, class DstTensor>
  requires is_tensor_v<DstTensor>
TESSERA_HOST_DEVICE void copy(Tensor<SE, SL> const& src, DstTensor&& dst) {
  using Src = Tensor<SE, SL>;
  using Dst = std::remove_cvref_t<DstTensor>;
  TESSERA_ASSERT(int(size(src.layout())) == int(size(dst.layout())));
  constexpr int V = detail::static_vector_width<Src, Dst>();
  if constexpr (V == 1) {
    detail::copy_elementwise(src, dst);
  } else {
    using T = typename Src::value_type;
    using VecT = typename detail::copy_vec<int(sizeof(T)) * V>::type;
    int const n = int(size(dst.layout()));
    // NOTE: checked once up front: base addresses and every chunk start aligned
    // to V elements; a misaligned view (e.g. a column offset by one) falls back.
    bool aligned = (n % V) == 0;
    TESSERA_UNROLL
    for (int j = 0; aligned && j < n; j += V) {
      aligned = detail::address_aligned(raw_pointer_cast(src.data() + src.layout()(j)), sizeof(VecT)) &&
                detail::address_aligned(raw_pointer_cast(dst.data() + dst.layout()(j)), sizeof(VecT));
    }
    if (aligned) {
      TESSERA_UNROLL
      for (int j = 0; j < n; j += V) {
        detail::move_vector<VecT>(raw_pointer_cast(src.data() + src.layout()(j)),
                                  raw_pointer_cast(dst.data() + dst.layout()(j)));
      }
    } else {
      detail::copy_elementwise(src, dst);
    }
  }
}

// Element-wise copy, element i taken iff pred(i). pred: a tensor of bool or a callable on the index.
template <class Pred, class SE, class SL, class DstTensor>
  requires is_tensor_v<DstTensor>
TESSERA_HOST_DEVICE void copy_if(Pred const& pred, Tensor<SE, SL> const& src, DstTensor&& dst) {
  using DT = typename std::remove_cvref_t<DstTensor>::value_type;
  int const n = int(size(dst.layout()));
  TESSERA_UNROLL
  for (int i = 0; i < n; ++i) {
    if (pred(i)) dst(i) = static_cast<DT>(src(i));
  }
}

namespace detail {
template <class Atom, class S, class D>
concept copy_atom_for = requires(Atom const& a, S const& s, D& d) { a.call(s, d); };
}  // namespace detail

// Copy with an atom (Copy_Atom or TiledCopy): mode 0 of src/dst is the atom's value mode.
template <class Atom, class SE, class SL, class DstTensor>
  requires(is_tensor_v<DstTensor> && !is_tensor_v<Atom>)
TESSERA_HOST_DEVICE void copy(Atom const& atom, Tensor<SE, SL> const& src, DstTensor&& dst) {
  constexpr int R = SL::rank;
  static_assert(R == std::remove_cvref_t<DstTensor>::rank, "copy(atom): src and dst have different ranks [partition both with the same TiledCopy]");
  if constexpr (R <= 1) {
    atom.call(src, dst);
  } else {
    auto src_v = group_modes<1, R>(src);  // (V,REST)
    auto dst_v = group_modes<1, R>(dst);  // (V,REST)
    int const n = int(size<1>(dst_v.layout()));
    TESSERA_UNROLL
    for (int r = 0; r < n; ++r) {
      auto d = dst_v(Underscore{}, r);
      atom.call(src_v(Underscore{}, r), d);
    }
  }
}

template <class Atom, class Pred, class SE, class SL, class DstTensor>
  requires(is_tensor_v<DstTensor> && !is_tensor_v<Atom>)
TESSERA_HOST_DEVICE void copy_if(Atom const& atom, Pred const& pred, Tensor<SE, SL> const& src, DstTensor&& dst) {
  constexpr int R = SL::rank;
  static_assert(R == std::remove_cvref_t<DstTensor>::rank, "copy_if(atom): src and dst have different ranks");
  if constexpr (R <= 1) {
    if (pred(0)) atom.call(src, dst);
  } else {
    auto src_v = group_modes<1, R>(src);  // (V,REST)
    auto dst_v = group_modes<1, R>(dst);  // (V,REST)
    int const n = int(size<1>(dst_v.layout()));
    TESSERA_UNROLL
    for (int r = 0; r < n; ++r) {
      if (pred(r)) {
        auto d = dst_v(Underscore{}, r);
        atom.call(src_v(Underscore{}, r), d);
      }
    }
  }
}

}  // namespace tessera
