// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Text descriptions of atoms and tiled atoms, for logs and debugging:
//   std::cout << tiled_mma;   // ThrLayoutVMNK, PermutationMNK, the atom's traits
//   std::cout << tiled_copy;  // Tiler_MN, TiledLayout_TV, the atom's layouts

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

}  // namespace tessera
