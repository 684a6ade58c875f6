// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// MMA_Atom, TiledMMA and ThrMMA.
//
//   MMA_Atom<Op>        one instruction: its traits plus call(D, A, B, C) on
//                       register fragments and make_fragment_A/B/C.
//   TiledMMA            atoms laid out over (M,N,K) threads
//                       (ThrLayoutVMNK = (atom threads, M, N, K) -> thread
//                       index) and a permutation tiler (PermutationMNK) that
//                       says which (M,N,K) coordinates one tile covers.
//   ThrMMA              one thread's view: partition_A/B/C of global or
//                       shared tensors, partition_fragment_A/B.
//   partition_shape_A/B/C(mma, shape), partition_fragment_A/B/C(mma, shape)
//                       the same shapes and register fragments from a tile
//                       shape alone.
//
// A partitioned tensor has shape (V, REST_M, REST_K, ...) for A: mode 0 is the
// atom's values held by this thread, then the repeats of the tile.

#include <cstring>
#include <type_traits>
#include <utility>

#include <tessera/atom/mma_traits.hpp>
#include <tessera/tensor/identity.hpp>
#include <tessera/tensor/swizzle_layout.hpp>

namespace tessera {

namespace detail {

// Packs the values of a fragment tensor into the register array an operation
// reads; the value count must fill the registers exactly.
template <class Regs, class ValType, class FrgTensor>
TESSERA_HOST_DEVICE void pack_registers(Regs& regs, FrgTensor const& frg) {
  using Reg = std::remove_extent_t<Regs>;
  constexpr int kRegs = int(std::extent_v<Regs>);
  constexpr int kVals = kRegs * int(sizeof(Reg)) / int(sizeof(ValType));
  static_assert(kVals * int(sizeof(ValType)) == kRegs * int(sizeof(Reg)),
                "MMA_Atom::call: values do not fill whole registers");
  static_assert(decltype(size(frg))::value == kVals,
                "MMA_Atom::call: fragment size differs from the atom's values per thread [pass tCrA(_,m,k)]");
  ValType vals[kVals];
  TESSERA_UNROLL
  for (int i = 0; i < kVals; ++i) vals[i] = static_cast<ValType>(frg(i));
  std::memcpy(&regs[0], &vals[0], sizeof(vals));
}

template <class Regs, class ValType, class FrgTensor>
TESSERA_HOST_DEVICE void unpack_registers(Regs const& regs, FrgTensor&& frg) {
  using Reg = std::remove_extent_t<Regs>;
  constexpr int kRegs = int(std::extent_v<Regs>);
  constexpr int kVals = kRegs * int(sizeof(Reg)) / int(sizeof(ValType));
  static_assert(decltype(size(frg))::value == kVals,
                "MMA_Atom::call: D fragment size differs from the atom's values per thread");
  ValType vals[kVals];
  std::memcpy(&vals[0], &regs[0], sizeof(vals));
  TESSERA_UNROLL
  for (int i = 0; i < kVals; ++i) frg(i) = vals[i];
}

}  // namespace detail

template <class... Args>
struct MMA_Atom;

template <class MMAOperation>
struct MMA_Atom<MMAOperation> : MMA_Atom<MMA_Traits<MMAOperation>> {};

template <class MMAOperation, class... Args>
struct MMA_Atom<MMA_Traits<MMAOperation, Args...>> : MMA_Traits<MMAOperation, Args...> {
  using Operation = MMAOperation;
  using Traits = MMA_Traits<MMAOperation, Args...>;

  using ValTypeD = typename Traits::ValTypeD;
  using ValTypeA = typename Traits::ValTypeA;
  using ValTypeB = typename Traits::ValTypeB;
  using ValTypeC = typename Traits::ValTypeC;

  using Shape_MNK = typename Traits::Shape_MNK;
  using ThrID = typename Traits::ThrID;
  using LayoutC_TV = typename Traits::CLayout;
  using LayoutA_TV = typename Traits::ALayout;
  using LayoutB_TV = typename Traits::BLayout;

  using FrgTypeD = ValTypeD;
  using FrgTypeA = ValTypeA;
  using FrgTypeB = ValTypeB;
  using FrgTypeC = ValTypeC;

  // D = A * B + C on this thread's fragments (each of size<1>(Layout?_TV)).
  // Traits that read operands other than through registers (the sm_90
  // GMMA atoms: shared-memory descriptors) provide
  // mma_unpack(traits, D, A, B, C) and make_fragment_A/B themselves.
  template <class TD, class TA, class TB, class TC>
  TESSERA_HOST_DEVICE void call(TD&& D, TA const& A, TB const& B, TC const& C) const {
    if constexpr (requires { Traits::mma_unpack(static_cast<Traits const&>(*this), D, A, B, C); }) {
      Traits::mma_unpack(static_cast<Traits const&>(*this), D, A, B, C);
    } else {
      call_registers(D, A, B, C);
    }
  }

  template <class TD, class TA, class TB, class TC>
  TESSERA_HOST_DEVICE void call_registers(TD&& D, TA const& A, TB const& B, TC const& C) const {
    typename Operation::DRegisters d;
    typename Operation::ARegisters a;
    typename Operation::BRegisters b;
    typename Operation::CRegisters c;
    detail::pack_registers<decltype(a), ValTypeA>(a, A);
    detail::pack_registers<decltype(b), ValTypeB>(b, B);
    detail::pack_registers<decltype(c), ValTypeC>(c, C);
    if constexpr (requires { Operation::fma(d, a, b, c); }) {
      Operation::fma(d, a, b, c);
    } else {
      static_assert(std::extent_v<decltype(d)> == 1 && std::extent_v<decltype(a)> == 1,
                    "MMA_Atom::call: operation takes neither register arrays nor single registers");
      Operation::fma(d[0], a[0], b[0], c[0]);
    }
    detail::unpack_registers<decltype(d), ValTypeD>(d, D);
  }

  // C += A * B.
  template <class TA, class TB, class TC>
  TESSERA_HOST_DEVICE void call(TA const& A, TB const& B, TC&& C) const {
    call(C, A, B, C);
  }

  // Register tensors shaped like an already partitioned tensor (V, REST...),
  // compact column-major: the values of one atom call are adjacent and the
  // repeats follow in (M, N|K) order whatever the source's strides were (so
  // fragments of a swizzled smem partition are laid out as in seed 000:
  // tCrA ((_2,_2),_4,K):((_1,_2),_4,_16)).
  template <class CTensor>
  TESSERA_HOST_DEVICE static auto make_fragment_C(CTensor&& ctensor) {
    static_assert(decltype(rank(ctensor))::value >= 3, "MMA_Atom::make_fragment_C: expected a (V,M,N) tensor");
    static_assert(decltype(size<0>(ctensor))::value == decltype(size<1>(LayoutC_TV{}))::value,
                  "MMA_Atom::make_fragment_C: mode 0 is not the atom's C values [partition with partition_C]");
    return make_tensor<FrgTypeC>(shape(ctensor));
  }
  template <class ATensor>
  TESSERA_HOST_DEVICE static auto make_fragment_A(ATensor&& atensor) {
    if constexpr (requires { Traits::make_fragment_A(atensor); }) {
      return Traits::make_fragment_A(atensor);
    } else {
      return make_register_fragment_A(atensor);
    }
  }
  template <class BTensor>
  TESSERA_HOST_DEVICE static auto make_fragment_B(BTensor&& btensor) {
    if constexpr (requires { Traits::make_fragment_B(btensor); }) {
      return Traits::make_fragment_B(btensor);
    } else {
      return make_register_fragment_B(btensor);
    }
  }
  template <class ATensor>
  TESSERA_HOST_DEVICE static auto make_register_fragment_A(ATensor&& atensor) {
    static_assert(decltype(rank(atensor))::value >= 3, "MMA_Atom::make_fragment_A: expected a (V,M,K) tensor");
    static_assert(decltype(size<0>(atensor))::value == decltype(size<1>(LayoutA_TV{}))::value,
                  "MMA_Atom::make_fragment_A: mode 0 is not the atom's A values [partition with partition_A]");
    return make_tensor<FrgTypeA>(shape(atensor));
  }
  template <class BTensor>
  TESSERA_HOST_DEVICE static auto make_register_fragment_B(BTensor&& btensor) {
    static_assert(decltype(rank(btensor))::value >= 3, "MMA_Atom::make_fragment_B: expected a (V,N,K) tensor");
    static_assert(decltype(size<0>(btensor))::value == decltype(size<1>(LayoutB_TV{}))::value,
                  "MMA_Atom::make_fragment_B: mode 0 is not the atom's B values [partition with partition_B]");
    return make_tensor<FrgTypeB>(shape(btensor));
  }
};

template <class TiledMMAType, class ThrVMNK>
struct ThrMMA;

namespace detail {
template <class T>
struct is_mma_atom : std::false_type {};
template <class... Args>
struct is_mma_atom<MMA_Atom<Args...>> : std::true_type {};
}  // namespace detail

// Atoms tiled over threads (AtomLayoutMNK) and a permutation of (M,N,K).
template <class MMAAtom, class AtomLayoutMNK, class PermutationMNK = Tile<Underscore, Underscore, Underscore>>
struct TiledMMA : MMAAtom {
  using Atom = MMAAtom;
  using AtomShape_MNK = typename MMAAtom::Shape_MNK;
  using AtomThrID = typename MMAAtom::ThrID;
  using AtomLayoutC_TV = typename MMAAtom::LayoutC_TV;
  using AtomLayoutA_TV = typename MMAAtom::LayoutA_TV;
  using AtomLayoutB_TV = typename MMAAtom::LayoutB_TV;

  static_assert(decltype(rank(AtomLayoutMNK{}))::value == 3, "TiledMMA: the atom layout must be rank 3 (M,N,K)");
  static_assert(decltype(rank(PermutationMNK{}))::value == 3, "TiledMMA: the permutation must be rank 3 (M,N,K)");

  // (thr_v, thr_m, thr_n, thr_k) -> thread index
  using ThrLayoutVMNK = decltype(tiled_product(AtomThrID{}, AtomLayoutMNK{}));
  ThrLayoutVMNK thr_layout_vmnk_;

  TESSERA_HOST_DEVICE constexpr TiledMMA(MMAAtom const& mma_atom = {}, AtomLayoutMNK const& thr_layout_mnk = {})
      : MMAAtom(mma_atom), thr_layout_vmnk_(tiled_product(AtomThrID{}, thr_layout_mnk)) {}

  TESSERA_HOST_DEVICE constexpr auto get_thr_layout_vmnk() const { return thr_layout_vmnk_; }

  // (M,N) -> ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))
  template <class CLayout>
  TESSERA_HOST_DEVICE constexpr auto thrfrg_C(CLayout const& clayout) const {
    static_assert(decltype(rank(clayout))::value >= 2, "TiledMMA::thrfrg_C: C must have (M,N) modes");
    auto t_tile = make_tile(get<0>(PermutationMNK{}), get<1>(PermutationMNK{}));
    auto t_layout = logical_divide(clayout, t_tile);  // (PermM,PermN)
    auto c_tile = make_tile(make_layout(size<0>(AtomShape_MNK{})), make_layout(size<1>(AtomShape_MNK{})));
    auto c_layout = zipped_divide(t_layout, c_tile);  // ((AtomM,AtomN),(RestM,RestN))
    auto tv_layout = composition(c_layout, make_tile(AtomLayoutC_TV{}, Underscore{}));  // ((ThrV,FrgV),(RestM,RestN))
    auto thr_tile = make_tile(Underscore{}, make_tile(make_layout(size<1>(thr_layout_vmnk_)),
                                                     make_layout(size<2>(thr_layout_vmnk_))));
    return zipped_divide(tv_layout, thr_tile);  // ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))
  }

  // (M,K) -> ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK)))
  template <class ALayout>
  TESSERA_HOST_DEVICE constexpr auto thrfrg_A(ALayout const& alayout) const {
    static_assert(decltype(rank(alayout))::value >= 2, "TiledMMA::thrfrg_A: A must have (M,K) modes");
    auto t_tile = make_tile(get<0>(PermutationMNK{}), get<2>(PermutationMNK{}));
    auto t_layout = logical_divide(alayout, t_tile);  // (PermM,PermK)
    auto a_tile = make_tile(make_layout(size<0>(AtomShape_MNK{})), make_layout(size<2>(AtomShape_MNK{})));
    auto a_layout = zipped_divide(t_layout, a_tile);  // ((AtomM,AtomK),(RestM,RestK))
    auto tv_layout = composition(a_layout, make_tile(AtomLayoutA_TV{}, Underscore{}));  // ((ThrV,FrgV),(RestM,RestK))
    auto thr_tile = make_tile(Underscore{}, make_tile(make_layout(size<1>(thr_layout_vmnk_)),
                                                     make_layout(size<3>(thr_layout_vmnk_))));
    return zipped_divide(tv_layout, thr_tile);  // ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK)))
  }

  // (N,K) -> ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK)))
  template <class BLayout>
  TESSERA_HOST_DEVICE constexpr auto thrfrg_B(BLayout const& blayout) const {
    static_assert(decltype(rank(blayout))::value >= 2, "TiledMMA::thrfrg_B: B must have (N,K) modes");
    auto t_tile = make_tile(get<1>(PermutationMNK{}), get<2>(PermutationMNK{}));
    auto t_layout = logical_divide(blayout, t_tile);  // (PermN,PermK)
    auto b_tile = make_tile(make_layout(size<1>(AtomShape_MNK{})), make_layout(size<2>(AtomShape_MNK{})));
    auto b_layout = zipped_divide(t_layout, b_tile);  // ((AtomN,AtomK),(RestN,RestK))
    auto tv_layout = composition(b_layout, make_tile(AtomLayoutB_TV{}, Underscore{}));  // ((ThrV,FrgV),(RestN,RestK))
    auto thr_tile = make_tile(Underscore{}, make_tile(make_layout(size<2>(thr_layout_vmnk_)),
                                                     make_layout(size<3>(thr_layout_vmnk_))));
    return zipped_divide(tv_layout, thr_tile);  // ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK)))
  }

  // The extent of one tile along mode I (0 = M, 1 = N, 2 = K).
  template <int I>
  TESSERA_HOST_DEVICE constexpr auto tile_size_mnk() const {
    static_assert(0 <= I && I < 3, "TiledMMA::tile_size_mnk: mode must be 0 (M), 1 (N) or 2 (K)");
    using Perm = std::remove_cvref_t<decltype(get<I>(PermutationMNK{}))>;
    if constexpr (std::is_same_v<Perm, Underscore>) {
      return size<I>(AtomShape_MNK{}) * size<I + 1>(thr_layout_vmnk_);
    } else {
      return size(Perm{});
    }
  }

  // (thr_idx, val) -> (M,N) coordinate inside one tile (column-major index).
  TESSERA_HOST_DEVICE constexpr auto get_layoutC_TV() const {
    auto ref_C = make_layout(make_shape(tile_size_mnk<0>(), tile_size_mnk<1>()));
    auto layoutC_TV = thrfrg_C(ref_C);
    auto thridx_2_thrid = right_inverse(thr_layout_vmnk_);
    return composition(layoutC_TV, make_tile(thridx_2_thrid, Underscore{}));
  }

  // (thr_idx, val) -> (M,K) coordinate inside one tile. Threads that differ
  // only in their N position read the same A values.
  TESSERA_HOST_DEVICE constexpr auto get_layoutA_TV() const {
    auto ref_A = make_layout(make_shape(tile_size_mnk<0>(), tile_size_mnk<2>()));
    auto layoutA_TV = thrfrg_A(ref_A);
    // (ThrV,(ThrM,ThrK)) -> (ThrV,(ThrM,ThrN,ThrK)): broadcast over ThrN
    auto atile = make_tile(Underscore{},
                           make_tile(make_layout(make_shape(size<1>(thr_layout_vmnk_), size<2>(thr_layout_vmnk_)),
                                                 make_stride(_1{}, _0{})),
                                     Underscore{}));
    auto thridx_2_thrid = right_inverse(thr_layout_vmnk_);
    return composition(composition(layoutA_TV, make_tile(atile, Underscore{})),
                       make_tile(thridx_2_thrid, Underscore{}));
  }

  // (thr_idx, val) -> (N,K) coordinate inside one tile; broadcast over ThrM.
  TESSERA_HOST_DEVICE constexpr auto get_layoutB_TV() const {
    auto ref_B = make_layout(make_shape(tile_size_mnk<1>(), tile_size_mnk<2>()));
    auto layoutB_TV = thrfrg_B(ref_B);
    // (ThrV,(ThrN,ThrK)) -> (ThrV,(ThrM,ThrN,ThrK))
    auto btile = make_tile(Underscore{},
                           make_tile(make_layout(make_shape(size<1>(thr_layout_vmnk_), size<2>(thr_layout_vmnk_)),
                                                 make_stride(_0{}, _1{})),
                                     Underscore{}));
    auto thridx_2_thrid = right_inverse(thr_layout_vmnk_);
    return composition(composition(layoutB_TV, make_tile(btile, Underscore{})),
                       make_tile(thridx_2_thrid, Underscore{}));
  }

  // Thread thr_idx's slice: its (v,m,n,k) coordinate, one per mode of the
  // thread layout, the coordinate the layout maps to thr_idx (through its
  // right inverse, so nested modes such as (lanes,warps) and modes in any
  // stride order are read as the layout says, not as a column-major split
  // of thr_idx over the flattened shape).
  template <class ThrIdx>
  TESSERA_HOST_DEVICE constexpr auto get_slice(ThrIdx const& thr_idx) const {
    auto thr_vmnk = idx2crd(right_inverse(thr_layout_vmnk_)(thr_idx), product_each(shape(thr_layout_vmnk_)));
    return ThrMMA<TiledMMA, decltype(thr_vmnk)>{*this, thr_vmnk};
  }
  template <class ThrIdx>
  TESSERA_HOST_DEVICE constexpr auto get_thread_slice(ThrIdx const& thr_idx) const {
    return get_slice(thr_idx);
  }

  // Fragments from partitioned tensors.
  using MMAAtom::make_fragment_A;
  using MMAAtom::make_fragment_B;
  using MMAAtom::make_fragment_C;
};

template <class TiledMMAType, class ThrVMNK>
struct ThrMMA : TiledMMAType {
  ThrVMNK thr_vmnk_;

  TESSERA_HOST_DEVICE constexpr ThrMMA(TiledMMAType const& tiled, ThrVMNK const& thr_vmnk)
      : TiledMMAType(tiled), thr_vmnk_(thr_vmnk) {}

  // (M,N,...) -> (V, REST_M, REST_N, ...) for this thread.
  template <class CTensor>
  TESSERA_HOST_DEVICE constexpr auto partition_C(CTensor&& ctensor) const {
    auto thr_tensor = make_tensor(std::forward<CTensor>(ctensor).data(), swizzle_split_layout(this->thrfrg_C(swizzle_split_layout(ctensor.layout()))));
    auto thr_vmn = make_coord(get<0>(thr_vmnk_), make_coord(get<1>(thr_vmnk_), get<2>(thr_vmnk_)));
    constexpr int kRest = decltype(rank<1, 1>(thr_tensor.layout()))::value;
    return thr_tensor(thr_vmn, make_coord(Underscore{}, repeat<kRest>(Underscore{})));
  }

  // (M,K,...) -> (V, REST_M, REST_K, ...) for this thread.
  template <class ATensor>
  TESSERA_HOST_DEVICE constexpr auto partition_A(ATensor&& atensor) const {
    auto thr_tensor = make_tensor(std::forward<ATensor>(atensor).data(), swizzle_split_layout(this->thrfrg_A(swizzle_split_layout(atensor.layout()))));
    auto thr_vmk = make_coord(get<0>(thr_vmnk_), make_coord(get<1>(thr_vmnk_), get<3>(thr_vmnk_)));
    constexpr int kRest = decltype(rank<1, 1>(thr_tensor.layout()))::value;
    return thr_tensor(thr_vmk, make_coord(Underscore{}, repeat<kRest>(Underscore{})));
  }

  // (N,K,...) -> (V, REST_N, REST_K, ...) for this thread.
  template <class BTensor>
  TESSERA_HOST_DEVICE constexpr auto partition_B(BTensor&& btensor) const {
    auto thr_tensor = make_tensor(std::forward<BTensor>(btensor).data(), swizzle_split_layout(this->thrfrg_B(swizzle_split_layout(btensor.layout()))));
    auto thr_vnk = make_coord(get<0>(thr_vmnk_), make_coord(get<2>(thr_vmnk_), get<3>(thr_vmnk_)));
    constexpr int kRest = decltype(rank<1, 1>(thr_tensor.layout()))::value;
    return thr_tensor(thr_vnk, make_coord(Underscore{}, repeat<kRest>(Underscore{})));
  }

  template <class CTensor>
    requires is_tensor_v<CTensor>
  TESSERA_HOST_DEVICE constexpr auto partition_fragment_C(CTensor&& ctensor) const {
    return TiledMMAType::make_fragment_C(partition_C(std::forward<CTensor>(ctensor)));
  }
  // The accumulator fragment of an (M,N) tile given by its shape or a
  // layout of it (seed 002: partition_fragment_C(make_layout(Shape<_128,_128>{}))):
  // only the shape matters to a register fragment.
  template <class CShape>
    requires(!is_tensor_v<CShape>)
  TESSERA_HOST_DEVICE constexpr auto partition_fragment_C(CShape const& c) const {
    if constexpr (requires { c.shape(); })
      return partition_fragment_C(make_identity_tensor(c.shape()));
    else
      return partition_fragment_C(make_identity_tensor(c));
  }
  template <class ATensor>
  TESSERA_HOST_DEVICE constexpr auto partition_fragment_A(ATensor&& atensor) const {
    return TiledMMAType::make_fragment_A(partition_A(std::forward<ATensor>(atensor)));
  }
  template <class BTensor>
  TESSERA_HOST_DEVICE constexpr auto partition_fragment_B(BTensor&& btensor) const {
    return TiledMMAType::make_fragment_B(partition_B(std::forward<BTensor>(btensor)));
  }
};

// TiledMMA from an atom (or its operation), the layout of atoms over threads
// in (M,N,K) (rank <= 3; missing modes are 1), and the permutation tiler.
template <class MMAOperation, class MMAThrLayout = Layout<Shape<_1, _1, _1>>,
          class Permutations = Tile<Underscore, Underscore, Underscore>>
TESSERA_HOST_DEVICE constexpr auto make_tiled_mma(MMA_Atom<MMAOperation> const& mma_atom,
                                              MMAThrLayout const& thr_layout = {},
                                              Permutations const& permutations = {}) {
  auto thr_layout_mnk = append<3>(thr_layout, Layout<_1, _0>{});
  auto permutation_mnk = append<3>(permutations, Underscore{});
  return TiledMMA<MMA_Atom<MMAOperation>, decltype(thr_layout_mnk), decltype(permutation_mnk)>{mma_atom,
                                                                                               thr_layout_mnk};
}

template <class MMAOperation, class MMAThrLayout = Layout<Shape<_1, _1, _1>>,
          class Permutations = Tile<Underscore, Underscore, Underscore>>
  requires(!detail::is_mma_atom<MMAOperation>::value)
TESSERA_HOST_DEVICE constexpr auto make_tiled_mma(MMAOperation const&, MMAThrLayout const& thr_layout = {},
                                              Permutations const& permutations = {}) {
  return make_tiled_mma(MMA_Atom<MMAOperation>{}, thr_layout, permutations);
}

// The shape of one thread's partition of an (M,N), (M,K) or (N,K) tile of
// the given shape: (V, REST_M, REST_N, ...) as thr_mma.partition_C etc. give
// it. Every thread's partition has this shape, so thread 0's is asked.
// @post partition_shape_C(mma, s) == shape(mma.get_slice(t).partition_C(x)) for every
//       thread t and tensor x of shape s (A and B alike)
template <class... Args, class ShapeMN>
TESSERA_HOST_DEVICE constexpr auto partition_shape_C(TiledMMA<Args...> const& mma, ShapeMN const& shape_mn) {
  return shape(mma.get_slice(_0{}).partition_C(make_identity_tensor(shape_mn)));
}
template <class... Args, class ShapeMK>
TESSERA_HOST_DEVICE constexpr auto partition_shape_A(TiledMMA<Args...> const& mma, ShapeMK const& shape_mk) {
  return shape(mma.get_slice(_0{}).partition_A(make_identity_tensor(shape_mk)));
}
template <class... Args, class ShapeNK>
TESSERA_HOST_DEVICE constexpr auto partition_shape_B(TiledMMA<Args...> const& mma, ShapeNK const& shape_nk) {
  return shape(mma.get_slice(_0{}).partition_B(make_identity_tensor(shape_nk)));
}

// Register fragments of those shapes (compact, column-major), without a
// tensor to partition: the accumulator, or the register A/B of an RS MMA.
template <class... Args, class ShapeMN>
TESSERA_HOST_DEVICE constexpr auto partition_fragment_C(TiledMMA<Args...> const& mma, ShapeMN const& shape_mn) {
  return make_tensor<typename TiledMMA<Args...>::FrgTypeC>(partition_shape_C(mma, shape_mn));
}
template <class... Args, class ShapeMK>
TESSERA_HOST_DEVICE constexpr auto partition_fragment_A(TiledMMA<Args...> const& mma, ShapeMK const& shape_mk) {
  return make_tensor<typename TiledMMA<Args...>::ValTypeA>(partition_shape_A(mma, shape_mk));
}
template <class... Args, class ShapeNK>
TESSERA_HOST_DEVICE constexpr auto partition_fragment_B(TiledMMA<Args...> const& mma, ShapeNK const& shape_nk) {
  return make_tensor<typename TiledMMA<Args...>::ValTypeB>(partition_shape_B(mma, shape_nk));
}

// Threads of a TiledMMA.
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto size(TiledMMA<Args...> const& mma) {
  return size(mma.get_thr_layout_vmnk());
}

template <int I, class... Args>
TESSERA_HOST_DEVICE constexpr auto tile_size(TiledMMA<Args...> const& mma) {
  return mma.template tile_size_mnk<I>();
}

template <int I, class... Args>
TESSERA_HOST_DEVICE constexpr auto tile_size_mnk(TiledMMA<Args...> const& mma) {
  return mma.template tile_size_mnk<I>();
}

// The tile one TiledMMA covers: (M,N,K).
template <class... Args>
TESSERA_HOST_DEVICE constexpr auto tile_shape(TiledMMA<Args...> const& mma) {
  return make_shape(tile_size<0>(mma), tile_size<1>(mma), tile_size<2>(mma));
}

}  // namespace tessera
