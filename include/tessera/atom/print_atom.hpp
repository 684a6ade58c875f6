// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Text descriptions of atoms and tiled atoms, for logs and debugging:
//   std::cout << tiled_mma;   // ThrLayoutVMNK, PermutationMNK, the atom's traits
//   std::cout << tiled_copy;  // Tiler_MN, TiledLayout_TV, the atom's layouts
//   print(tiled_mma, "\n");   // the same text through printf (device-safe)

#include <ostream>

#include <tessera/atom/copy_atom.hpp>
#include <tessera/atom/mma_atom.hpp>
#include <tessera/layout.hpp>

namespace tessera {

template <class... Args>
std::ostream& operator<<(std::ostream& os, MMA_Atom<Args...> const&) {
  using A = MMA_Atom<Args...>;
  return os << "MMA_Atom\n  ThrID:      " << typename A::ThrID{} << "\n  Shape_MNK:  " << typename A::Shape_MNK{}
            << "\n  LayoutA_TV: " << typename A::LayoutA_TV{} << "\n  LayoutB_TV: " << typename A::LayoutB_TV{}
            << "\n  LayoutC_TV: " << typename A::LayoutC_TV{} << "\n";
}

template <class Atom, class AtomLayoutMNK, class PermutationMNK>
std::ostream& operator<<(std::ostream& os, TiledMMA<Atom, AtomLayoutMNK, PermutationMNK> const& mma) {
  os << "TiledMMA\n  ThrLayoutVMNK:  " << mma.get_thr_layout_vmnk() << "\n  PermutationMNK: " << PermutationMNK{}
     << "\n  Tile (M,N,K):   " << tile_shape(mma) << "\n";
  return os << static_cast<Atom const&>(mma);
}

template <class... Args>
std::ostream& operator<<(std::ostream& os, Copy_Atom<Args...> const&) {
  using A = Copy_Atom<Args...>;
  return os << "Copy_Atom\n  ThrID:        " << typename A::ThrID{} << "\n  ValLayoutSrc: " << typename A::ValLayoutSrc{}
            << "\n  ValLayoutDst: " << typename A::ValLayoutDst{} << "\n  ValLayoutRef: " << typename A::ValLayoutRef{}
            << "\n";
}

template <class Atom, class LayoutTV, class Tiler>
std::ostream& operator<<(std::ostream& os, TiledCopy<Atom, LayoutTV, Tiler> const& copy) {
  os << "TiledCopy\n  Tiler_MN:       " << Tiler{} << "\n  TiledLayout_TV: " << LayoutTV{} << "\n";
  return os << static_cast<Atom const&>(copy);
}

// printf forms of the above, so print(x, ...) takes atoms in device code too.
template <class... Args>
TESSERA_HOST_DEVICE void print(MMA_Atom<Args...> const&) {
  using A = MMA_Atom<Args...>;
  print("MMA_Atom\n  ThrID:      ", typename A::ThrID{}, "\n  Shape_MNK:  ", typename A::Shape_MNK{});
  print("\n  LayoutA_TV: ", typename A::LayoutA_TV{}, "\n  LayoutB_TV: ", typename A::LayoutB_TV{});
  print("\n  LayoutC_TV: ", typename A::LayoutC_TV{}, "\n");
}

template <class Atom, class AtomLayoutMNK, class PermutationMNK>
TESSERA_HOST_DEVICE void print(TiledMMA<Atom, AtomLayoutMNK, PermutationMNK> const& mma) {
  print("TiledMMA\n  ThrLayoutVMNK:  ", mma.get_thr_layout_vmnk(), "\n  PermutationMNK: ", PermutationMNK{});
  print("\n  Tile (M,N,K):   ", tile_shape(mma), "\n", static_cast<Atom const&>(mma));
}

template <class... Args>
TESSERA_HOST_DEVICE void print(Copy_Atom<Args...> const&) {
  using A = Copy_Atom<Args...>;
  print("Copy_Atom\n  ThrID:        ", typename A::ThrID{}, "\n  ValLayoutSrc: ", typename A::ValLayoutSrc{});
  print("\n  ValLayoutDst: ", typename A::ValLayoutDst{}, "\n  ValLayoutRef: ", typename A::ValLayoutRef{}, "\n");
}

template <class Atom, class LayoutTV, class Tiler>
TESSERA_HOST_DEVICE void print(TiledCopy<Atom, LayoutTV, Tiler> const& copy) {
  print("TiledCopy\n  Tiler_MN:       ", Tiler{}, "\n  TiledLayout_TV: ", LayoutTV{}, "\n");
  print(static_cast<Atom const&>(copy));
}

// A thread's slice prints as its tiled atom.
template <class TiledCopyType, class ThrIdx>
TESSERA_HOST_DEVICE void print(ThrCopy<TiledCopyType, ThrIdx> const& thr) {
  print(static_cast<TiledCopyType const&>(thr));
}
template <class TiledMMAType, class ThrVMNK>
TESSERA_HOST_DEVICE void print(ThrMMA<TiledMMAType, ThrVMNK> const& thr) {
  print(static_cast<TiledMMAType const&>(thr));
}

}  // namespace tessera
