// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Copy and MMA atoms, TiledCopy and TiledMMA. Host-visible: the traits and the
// partitioning compile under a plain C++ compiler; the instructions
// themselves (fma, copy) exist only under nvcc.

#include <tessera/atom/numeric.hpp>
#include <tessera/atom/mma_traits.hpp>
#include <tessera/atom/mma_sm80.hpp>
#include <tessera/atom/mma_sm90.hpp>
#include <tessera/atom/gmma_op_selector.hpp>
#include <tessera/atom/mma_atom.hpp>
#include <tessera/atom/copy_traits.hpp>
#include <tessera/atom/copy_sm75.hpp>
#include <tessera/atom/copy_sm80.hpp>
#include <tessera/atom/copy_sm90.hpp>
#include <tessera/atom/copy_atom.hpp>
#include <tessera/atom/print_atom.hpp>
#include <tessera/atom/gmma_smem_atoms.hpp>
