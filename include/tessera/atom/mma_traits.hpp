// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// MMA_Traits<Op>: what an MMA operation computes and how its operands are
// spread over the threads that issue it.
//
//   ValTypeD/A/B/C   element types of the four operands
//   Shape_MNK        (M,N,K) of one instruction
//   ThrID            atom thread index -> hardware thread (lane)
//   ALayout          (thr,val) -> m + M*k      (column-major (M,K) coordinate)
//   BLayout          (thr,val) -> n + N*k      (column-major (N,K) coordinate)
//   CLayout          (thr,val) -> m + M*n      (column-major (M,N) coordinate)
//
// Operations expose `fma(...)` on the registers, in the order
// D registers, A registers, B registers, C registers, and name their register
// arrays DRegisters/ARegisters/BRegisters/CRegisters.

#include <tessera/atom/numeric.hpp>
#include <tessera/layout.hpp>

namespace tessera {

template <class MMAOperation, class... MMAOpArgs>
struct MMA_Traits {
  static_assert(sizeof(MMAOperation) == 0,
                "MMA_Traits: no traits for this MMA operation [include the header that defines it, "
                "e.g. tessera/atom/mma_sm80.hpp]");
};

// D = A * B + C on one thread, one element each: the portable fallback.
template <class D, class A = D, class B = A, class C = D>
struct UniversalFMA {
  using DRegisters = D[1];
  using ARegisters = A[1];
  using BRegisters = B[1];
  using CRegisters = C[1];

  TESSERA_HOST_DEVICE static void fma(D& d, A const& a, B const& b, C const& c) {
    d = static_cast<D>(static_cast<D>(a) * static_cast<D>(b) + static_cast<D>(c));
  }
};

template <class D, class A, class B, class C>
struct MMA_Traits<UniversalFMA<D, A, B, C>> {
  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = C;

  using Shape_MNK = Shape<_1, _1, _1>;
  using ThrID = Layout<_1>;
  // (T1,V1) -> (M1,K1), (N1,K1), (M1,N1)
  using ALayout = Layout<Shape<_1, _1>>;
  using BLayout = Layout<Shape<_1, _1>>;
  using CLayout = Layout<Shape<_1, _1>>;
};

}  // namespace tessera
