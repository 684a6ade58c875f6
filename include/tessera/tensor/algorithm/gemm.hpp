// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// gemm(mma, D, A, B, C): D = A * B + C over this thread's fragments, dispatched
// on the ranks (V is the atom's value mode, passed whole to mma.call):
//   (V)     x (V)     => (V)      one mma.call(D, A, B, C)
//   (M)     x (N)     => (M,N)    outer product, one call per (m,n)
//   (M,K)   x (N,K)   => (M,N)    one call per (m,n,k)
//   (V,M)   x (V,N)   => (V,M,N)  mma.call(D(_,m,n), A(_,m), B(_,n), C(_,m,n))
//   (V,M,K) x (V,N,K) => (V,M,N)  the above for each k, accumulating into D
//                                  (an atom's accumulate_ scale, as the GMMA
//                                  atoms have, applies to the first k only)
// gemm_walk(mma, walk, D, A, B, C): (V,M) x (V,N) => (V,M,N) with the (m,n)
//   pairs in the order walk(s, m, n) gives for s = 0 .. M*N-1 (a bijection)
// gemm(mma, A, B, C) is gemm(mma, C, A, B, C); gemm(A, B, C) uses a scalar
// multiply-add (d = a * b + c in D's value type, one element per V), which is
// what MMA_Atom<UniversalFMA<...>> computes.
//
// @law gemm(A, B, C) leaves C(m,n) == C0(m,n) + sum_k A(m,k) * B(n,k)

#include <type_traits>
#include <utility>

#include "tessera/config.hpp"
#include "tessera/layout.hpp"
#include "tessera/tensor/tensor_impl.hpp"

namespace tessera {

namespace detail {
// The default "atom": element-wise d(v) = a(v) * b(v) + c(v) in D's value type.
struct scalar_fma {
  template <class TD, class TA, class TB, class TC>
  TESSERA_HOST_DEVICE void call(TD&& d, TA const& a, TB const& b, TC const& c) const {
    using T = typename std::remove_cvref_t<TD>::value_type;
    int const n = int(size(d.layout()));
    TESSERA_UNROLL
    for (int v = 0; v < n; ++v) {
      d(v) = static_cast<T>(static_cast<T>(a(v)) * static_cast<T>(b(v)) + static_cast<T>(c(v)));
    }
  }
};

// A one-element view of t at `coord` (a V mode of size 1 for the plain forms).
template <class TensorT, class Coord>
TESSERA_HOST_DEVICE constexpr auto unit_view(TensorT&& t, Coord const& coord) {
  return make_tensor(t.data() + t.layout()(coord), make_layout(Int<1>{}, Int<0>{}));
}
}  // namespace detail

template <class MMA, class DTensor, class AE, class AL, class BE, class BL, class CE, class CL>
  requires(is_tensor_v<DTensor> && !is_tensor_v<MMA>)
TESSERA_HOST_DEVICE void gemm(MMA const& mma, DTensor&& D, Tensor<AE, AL> const& A, Tensor<BE, BL> const& B,
                              Tensor<CE, CL> const& C) {
  constexpr int rD = std::remove_cvref_t<DTensor>::rank;
  constexpr int rA = AL::rank;
  constexpr int rB = BL::rank;
  constexpr int rC = CL::rank;
  static_assert(rD == rC, "gemm: D and C have different ranks");
  static_assert(rA == rB, "gemm: A and B have different ranks [A is (V,M,K) and B is (V,N,K)]");

  if constexpr (rD == 1 && rA == 1) {
    // (V) x (V) => (V)
    static_assert(requires { mma.call(D, A, B, C); },
                  "gemm(mma, D, A, B, C): the atom has no call(d, a, b, c) [pass an MMA_Atom or TiledMMA]");
    mma.call(D, A, B, C);
  } else if constexpr (rD == 2 && rA == 1) {
    // (M) x (N) => (M,N)
    int const M = int(size<0>(A.layout()));
    int const N = int(size<0>(B.layout()));
    TESSERA_ASSERT(M == int(size<0>(D.layout())) && N == int(size<1>(D.layout())));
    TESSERA_UNROLL
    for (int m = 0; m < M; ++m) {
      TESSERA_UNROLL
      for (int n = 0; n < N; ++n) {
        auto d = detail::unit_view(D, make_coord(m, n));
        mma.call(d, detail::unit_view(A, m), detail::unit_view(B, n), detail::unit_view(C, make_coord(m, n)));
      }
    }
  } else if constexpr (rD == 2 && rA == 2) {
    // (M,K) x (N,K) => (M,N)
    int const M = int(size<0>(A.layout()));
    int const N = int(size<0>(B.layout()));
    int const K = int(size<1>(A.layout()));
    TESSERA_ASSERT(K == int(size<1>(B.layout())));
    TESSERA_ASSERT(M == int(size<0>(D.layout())) && N == int(size<1>(D.layout())));
    TESSERA_UNROLL
    for (int k = 0; k < K; ++k) {
      TESSERA_UNROLL
      for (int m = 0; m < M; ++m) {
        TESSERA_UNROLL
        for (int n = 0; n < N; ++n) {
          auto d = detail::unit_view(D, make_coord(m, n));
          auto a = detail::unit_view(A, make_coord(m, k));
          auto b = detail::unit_view(B, make_coord(n, k));
          if (k == 0) {
            mma.call(d, a, b, detail::unit_view(C, make_coord(m, n)));
          } else {
            mma.call(d, a, b, d);
          }
        }
      }
    }
  } else if constexpr (rD == 3 && rA == 2) {
    // (V,M) x (V,N) => (V,M,N)
    int const M = int(size<1>(A.layout()));
    int const N = int(size<1>(B.layout()));
    TESSERA_ASSERT(M == int(size<1>(D.layout())) && N == int(size<2>(D.layout())));
    TESSERA_UNROLL
    for (int m = 0; m < M; ++m) {
      TESSERA_UNROLL
      for (int n = 0; n < N; ++n) {
        // NOTE: serpentine over n so consecutive calls share an A or B fragment.
        int const ns = (m & 1) ? N - 1 - n : n;
        auto d = D(Underscore{}, m, ns);
        mma.call(d, A(Underscore{}, m), B(Underscore{}, ns), C(Underscore{}, m, ns));
      }
    }
  } else if constexpr (rD == 3 && rA == 3) {
    // (V,M,K) x (V,N,K) => (V,M,N)
    int const K = int(size<2>(A.layout()));
    TESSERA_ASSERT(K == int(size<2>(B.layout())));
    TESSERA_UNROLL
    for (int k = 0; k < K; ++k) {
      if (k == 0) {
        gemm(mma, D, A(Underscore{}, Underscore{}, k), B(Underscore{}, Underscore{}, k), C);
      } else if constexpr (requires { mma.accumulate_; }) {
        // An atom with a scale-d (the GMMA atoms' accumulate_) applies it to
        // the first k-block; the later ones accumulate onto it.
        auto accumulating = mma;
        accumulating.accumulate_ = decltype(accumulating.accumulate_)(1);
        gemm(accumulating, D, A(Underscore{}, Underscore{}, k), B(Underscore{}, Underscore{}, k), D);
      } else {
        gemm(mma, D, A(Underscore{}, Underscore{}, k), B(Underscore{}, Underscore{}, k), D);
      }
    }
  } else {
    static_assert(rD == 0, "gemm: unsupported ranks [expected (V)x(V)=>(V), (M)x(N)=>(M,N), (M,K)x(N,K)=>(M,N), "
                           "(V,M)x(V,N)=>(V,M,N) or (V,M,K)x(V,N,K)=>(V,M,N)]");
  }
}

// C = A * B + C with an atom.
template <class MMA, class AE, class AL, class BE, class BL, class CTensor>
  requires(is_tensor_v<CTensor> && !is_tensor_v<MMA>)
TESSERA_HOST_DEVICE void gemm(MMA const& mma, Tensor<AE, AL> const& A, Tensor<BE, BL> const& B, CTensor&& C) {
  gemm(mma, C, A, B, C);
}

// C = A * B + C with the scalar multiply-add.
template <class AE, class AL, class BE, class BL, class CTensor>
  requires is_tensor_v<CTensor>
TESSERA_HOST_DEVICE void gemm(Tensor<AE, AL> const& A, Tensor<BE, BL> const& B, CTensor&& C) {
  gemm(detail::scalar_fma{}, C, A, B, C);
}

// (V,M) x (V,N) => (V,M,N), call s (s = 0 .. M*N-1) on the pair (m,n) that
// walk(s, m, n) sets. Only the order of the calls changes, which is the order
// the compiler starts from when it schedules them and allocates their
// operands (e.g. the FFMA walks of simt_sgemm, ffma_walk).
// @pre walk is a bijection of [0, M*N) onto [0,M) x [0,N)
template <class MMA, class Walk, class DTensor, class AE, class AL, class BE, class BL, class CE, class CL>
  requires(is_tensor_v<DTensor> && !is_tensor_v<MMA>)
TESSERA_HOST_DEVICE void gemm_walk(MMA const& mma, Walk const& walk, DTensor&& D, Tensor<AE, AL> const& A,
                                   Tensor<BE, BL> const& B, Tensor<CE, CL> const& C) {
  static_assert(std::remove_cvref_t<DTensor>::rank == 3 && AL::rank == 2 && BL::rank == 2 && CL::rank == 3,
                "gemm_walk: expected (V,M) x (V,N) => (V,M,N) [slice the K mode off first]");
  constexpr int M = int(decltype(size<1>(A.layout()))::value);
  constexpr int N = int(decltype(size<1>(B.layout()))::value);
  TESSERA_ASSERT(M == int(size<1>(D.layout())) && N == int(size<2>(D.layout())));
  TESSERA_UNROLL
  for (int s = 0; s < M * N; ++s) {
    int m = 0, n = 0;
    walk(s, m, n);
    auto d = D(Underscore{}, m, n);
    mma.call(d, A(Underscore{}, m), B(Underscore{}, n), C(Underscore{}, m, n));
  }
}

// C += A * B in the order of `walk`.
template <class MMA, class Walk, class AE, class AL, class BE, class BL, class CTensor>
  requires(is_tensor_v<CTensor> && !is_tensor_v<MMA>)
TESSERA_HOST_DEVICE void gemm_walk(MMA const& mma, Walk const& walk, Tensor<AE, AL> const& A, Tensor<BE, BL> const& B,
                                   CTensor&& C) {
  gemm_walk(mma, walk, C, A, B, C);
}

}  // namespace tessera
