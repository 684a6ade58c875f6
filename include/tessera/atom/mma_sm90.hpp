// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Hopper warpgroup MMA atoms under CuTe's names: wgmma.mma_async m64nNkK in
// its SS form (A and B read from shared memory through 64-bit matrix
// descriptors, D accumulated in registers), usable in a TiledMMA:
//
//   using namespace tessera;
//   auto mma = make_tiled_mma(SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>{},
//                             Layout<Shape<_1, _1, _1>>{}, Tile<_128, _128, _16>{});
//   auto thr = mma.get_slice(threadIdx.x);
//   Tensor tCsA = thr.partition_A(sA);             // ((_64,_16), M, K): the whole sub-tile per thread
//   Tensor tCrA = thr.partition_fragment_A(sA);    // (_1, M, K) descriptors
//   Tensor tCrC = thr.partition_fragment_C(make_shape(_128{}, _128{}));
//   warpgroup_arrive();  gemm(mma, tCrA, tCrB, tCrC);  warpgroup_commit_batch();  warpgroup_wait<0>();
//
// Names: SM90_64xNx16_{F16F16F16,F32F16F16,F32BF16BF16}_SS<tnspA, tnspB, scaleA, scaleB>
// (tnsp: GMMA::Major::K or MN, default K; scale: GMMA::ScaleIn::One or Neg),
// SM90_64xNx8_F32TF32TF32_SS_TN<scaleA, scaleB>, SM90_64xNx32_S32{S8S8,U8U8}_SS_TN,
// SM90_64xNx32_F32{E4M3,E5M2}{E4M3,E5M2}_SS_TN<scaleA, scaleB>,
// N = 8, 16, ..., 256. (CuTe declares tnspA/tnspB without defaults; seed 002
// writes SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K>, which the defaults accept.)
//
// Traits (PTX ISA, "Matrix fragments for wgmma.mma_async"), thread t of the
// warpgroup = 32 w + 4 g + q:
//   ThrID    _128
//   ALayout  (_128,(_64,K)):(_0,(_1,_64))     every thread names the whole A sub-tile
//   BLayout  (_128,(N,K)):(_0,(_1,N))
//   CLayout  ((_4,_8,_4),(_2,_2,N/8)):((_128,_1,_16),(_64,_8,_512))
//            value e + 2h + 4j of thread t is D(16w + g + 8h, 8j + 2q + e)
// The accumulator of the f16 family is two halves per 32-bit register, in the
// same value order.
//
// Operand tiles. A partitioned A (or B) holds, per (m, k) repeat, the
// (64, K) sub-tile one instruction reads. Its descriptor is built when the
// sub-tile is a canonical wgmma layout: the tensor's layout is
// Swizzle<B, 4 - log2 E, 3> o offset o L (B = 1, 2, 3: 32, 64, 128-byte
// rows; E = element bytes, what GMMA::Layout_*_SW*_Atom<T> tile into), or a
// plain L (interleaved: 16-byte rows, what GMMA::Layout_*_INTER_Atom<T>
// tile into), with, on the sub-tile's (mn, k) and A = W/E elements per row:
//   swizzled K-major:     L(mn, k) == (mn % 8) A + (mn / 8) SBO/E + k
//   swizzled MN-major:    L(mn, k) == mn % A + (mn / A) LBO/E + (k % 8) A + (k / 8) SBO/E
//   interleaved K-major:  L(mn, k) == (mn % 8) A + (mn / 8) SBO/E + k % A + (k / A) LBO/E
//   interleaved MN-major: L(mn, k) == mn % A + (mn / A) SBO/E + (k % 8) A + (k / 8) LBO/E
// (arch::gmma_canonical_offset, the one statement of these forms; interleaved:
// LBO steps along K, SBO along M/N, pinned on an H100 by run 173). The check runs at compile time over every element of the
// sub-tile and fails the build naming the rule otherwise. Hardware and
// layout then both read byte Sw(base + offset*E + L(...)*E) when the
// tensor's base is aligned to the swizzle period (8 W bytes; 16 bytes
// interleaved), which is checked with TESSERA_ASSERT.
// The repeats' strides (in 16-byte units) become the layout of a descriptor
// tensor, so tCrA(_, m, k) is the descriptor of sub-tile (m, k), its start
// address advanced as the tile's offsets say.
//
// gemm(mma, A, B, C) accepts descriptor fragments or the shared-memory
// partitions themselves (seed 002's gemm(tiled_mma, tCsA(_,_,k), tCsB(_,_,k),
// tCrC)); D must be C. `mma.accumulate_` (GMMA::ScaleOut::One by default) is
// scale-d: ScaleOut::Zero makes the next instructions overwrite D. The
// instructions are asynchronous: sequence them with warpgroup_arrive /
// warpgroup_commit_batch / warpgroup_wait (tessera/atom/sync_sm90.cuh) and
// keep the accumulators fenced (warpgroup_fence_operand). Device code for
// sm_90a only: any other target fails the build in tessera::arch::Wgmma.
//
// The RS forms (SM90_64xNx16_*_RS<tnspA = K, tnspB, ...>, *_RS_TN) take A
// from a register fragment (partition_fragment_A gives one; copy the
// operand into it, then warpgroup_fence_operand it before warpgroup_arrive:
// wgmma reads those registers asynchronously). Their A layout, per warp the
// mma.sync A fragment of rows 16 w .. 16 w + 15:
//   16-bit ((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))
//   tf32   ((_4,_8,_4),(_2,_2)):((_64,_1,_16),(_8,_256))
//   8-bit  ((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))
//
// fp8: SM90_64xNx32_F32{E4M3E4M3,E4M3E5M2,E5M2E4M3,E5M2E5M2}_{SS,RS}_TN<scaleA,
// scaleB> over float_e4m3_t / float_e5m2_t (tessera/atom/numeric.hpp).

#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include <tessera/arch/sm90/gmma_desc.hpp>
#include <tessera/arch/sm90/gmma_layout.hpp>
#include <tessera/atom/gmma_smem_atoms.hpp>
#include <tessera/atom/mma_traits.hpp>
#include <tessera/tensor/pointer.hpp>
#include <tessera/tensor/tensor_impl.hpp>

#if defined(__CUDACC__)
#include <tessera/arch/sm90/wgmma.cuh>
#endif

namespace tessera {

namespace GMMA {

// scale-d of wgmma: Zero computes D = A*B, One computes D = A*B + D.
enum class ScaleOut : int { Zero = 0, One = 1 };
// imm-scale-a / imm-scale-b: the operand is used as is (One) or negated (Neg).
enum class ScaleIn : int { Neg = -1, One = 1 };

// (T128, (MN, K)) -> mn + MN*k.
template <int kMN, int kK>
using ABLayout = Layout<Shape<_128, Shape<Int<kMN>, Int<kK>>>, Stride<_0, Stride<_1, Int<kMN>>>>;

// (T128, V) -> m + 64*n of the 64 x N accumulator.
template <int kN>
using CLayout_64xN =
    Layout<Shape<Shape<_4, _8, _4>, Shape<_2, _2, Int<kN / 8>>>, Stride<Stride<_128, _1, _16>, Stride<_64, _8, _512>>>;

// An iterator over descriptors: *(it + n) is the descriptor whose start
// address is n * 16 bytes past it's (the offsets of a descriptor tensor's
// layout count 16-byte units).
// @law (*(it + n)).start_address() == (*it).start_address() + 16 n, the other fields unchanged
struct DescriptorIterator {
  using value_type = arch::GmmaDescriptor;
  using element_type = arch::GmmaDescriptor const;
  using reference = arch::GmmaDescriptor;

  arch::GmmaDescriptor desc_{};

  TESSERA_HOST_DEVICE constexpr arch::GmmaDescriptor operator*() const { return desc_; }
  template <class Off>
  TESSERA_HOST_DEVICE constexpr DescriptorIterator operator+(Off const& off) const {
    return DescriptorIterator{arch::GmmaDescriptor{desc_.desc + std::uint64_t(std::int64_t(off))}};
  }
  template <class Off>
  TESSERA_HOST_DEVICE constexpr arch::GmmaDescriptor operator[](Off const& off) const {
    return *(*this + off);
  }
};

TESSERA_HOST_DEVICE inline void print(DescriptorIterator const& it) {
  printf("GmmaDesc(0x%016llx)", static_cast<unsigned long long>(it.desc_.desc));
}

}  // namespace GMMA

namespace detail {

// What the compile-time analysis of one operand sub-tile found.
struct gmma_operand_plan {
  bool swizzled = false;   // the layout's swizzle is a wgmma mode for this element size
  bool canonical = false;  // and the sub-tile is that mode's canonical layout
  arch::GmmaSwizzle mode = arch::GmmaSwizzle::interleave;
  std::uint32_t lbo = 0;   // bytes
  std::uint32_t sbo = 0;   // bytes
  std::uint32_t period = 16;  // bytes: the base alignment the swizzle needs (8 W)
};

template <class SwizzleT>
struct gmma_swizzle_params {
  static constexpr int bits = -1, base = -1, shift = -1;
};
template <int B, int M, int S>
struct gmma_swizzle_params<Swizzle<B, M, S>> {
  static constexpr int bits = B, base = M, shift = S;
};

// A static layout as flat (size, stride) leaves, evaluated by plain integer
// arithmetic (the compile-time check below visits up to 8192 elements, past
// what nvcc's front end folds through the generic layout evaluation).
struct flat_layout {
  int n = 0;
  long long size[32] = {};
  long long stride[32] = {};
  constexpr long long operator()(long long i) const {
    long long off = 0;
    for (int j = 0; j < n; ++j) {
      off += (i % size[j]) * stride[j];
      i /= size[j];
    }
    return off;
  }
};

template <class L>
constexpr flat_layout flat_layout_of() {
  using FS = decltype(flatten(std::declval<typename L::shape_type>()));
  using FD = decltype(flatten(std::declval<typename L::stride_type>()));
  flat_layout f;
  if constexpr (is_tuple_v<FS>) {
    static_assert(tuple_size_v<FS> <= 32, "GMMA operand: more than 32 leaves in the sub-tile's layout");
    [&]<int... I>(seq<I...>) {
      ((f.size[I] = std::remove_cvref_t<decltype(get<I>(std::declval<FS>()))>::value,
        f.stride[I] = std::remove_cvref_t<decltype(get<I>(std::declval<FD>()))>::value),
       ...);
    }(tuple_seq<FS>{});
    f.n = int(tuple_size_v<FS>);
  } else {
    f.size[0] = FS::value;
    f.stride[0] = FD::value;
    f.n = 1;
  }
  return f;
}

// VLayout: the sub-tile's layout, index mn + kMN * k -> element offset,
// compared with arch::gmma_canonical_offset (tessera/arch/sm90/gmma_layout.hpp)
// with LBO/SBO read off the layout. A stride the instruction never takes
// (one 8-row group, one atom) is reported as the 8-row pattern's size.
template <GMMA::Major kMajor, int kE, int kMN, int kK, class SwizzleT, class VLayout>
constexpr gmma_operand_plan plan_gmma_operand() {
  gmma_operand_plan p;
  using P = gmma_swizzle_params<SwizzleT>;
  constexpr int kLogE = kE == 1 ? 0 : kE == 2 ? 1 : kE == 4 ? 2 : -1;
  constexpr bool kInterleave = P::bits == 0;  // Swizzle<0, M, S> is the identity
  if (kLogE < 0) return p;
  if (!kInterleave && (P::shift != 3 || P::base != 4 - kLogE || P::bits < 1 || P::bits > 3)) return p;
  p.swizzled = true;
  p.mode = kInterleave      ? arch::GmmaSwizzle::interleave
           : P::bits == 3   ? arch::GmmaSwizzle::b128
           : P::bits == 2   ? arch::GmmaSwizzle::b64
                            : arch::GmmaSwizzle::b32;
  long long const w = kInterleave ? 16 : 16LL << P::bits;  // row bytes
  long long const a = w / kE;                               // elements per row
  p.period = kInterleave ? 16u : std::uint32_t(8 * w);
  constexpr flat_layout f = flat_layout_of<VLayout>();
  auto at = [&](long long i) { return f(i); };
  constexpr bool kKMajor = kMajor == GMMA::Major::K;
  long long lbo = 8 * a, sbo = 8 * a;  // elements
  if constexpr (kKMajor) {
    if (kInterleave ? kK % a != 0 : kK * kE > w) return p;
    if (kMN > 8) sbo = at(8);
    // Swizzled: LBO unused (k stays inside one row); the field holds 16 bytes.
    lbo = kInterleave ? (kK > a ? at(kMN * a) : 8 * a) : 16 / kE;
  } else {
    if (kE != 2 || kK % 8 != 0) return p;
    long long const mn_step = kMN > a ? at(a) : 8 * a;      // between the A-element runs along M/N
    long long const k_step = kK > 8 ? at(8 * kMN) : 8 * a;  // between the groups of 8 k
    lbo = kInterleave ? k_step : mn_step;
    sbo = kInterleave ? mn_step : k_step;
  }
  for (int i = 0; i < kMN * kK; ++i)
    if (at(i) != arch::gmma_canonical_offset(kKMajor, kInterleave, a, lbo, sbo, i % kMN, i / kMN)) return p;
  for (long long const bo : {lbo, sbo})
    if (bo <= 0 || (bo * kE) % 16 != 0 || bo * kE >= (1LL << 18)) return p;
  p.lbo = std::uint32_t(lbo * kE);
  p.sbo = std::uint32_t(sbo * kE);
  p.canonical = true;
  return p;
}

// The offset a swizzled layout adds before its swizzle (0 for a plain layout).
template <class L>
TESSERA_HOST_DEVICE constexpr auto offset_before_swizzle(L const& l) {
  if constexpr (is_composed_layout_v<L>) return l.offset();
  else return Int<0>{};
}

// Stride in elements -> stride in 16-byte units (a static multiple of 16 bytes).
template <int kE>
struct to_desc_units {
  template <class D>
  TESSERA_HOST_DEVICE constexpr auto operator()(D const& d) const {
    if constexpr (is_static_v<D>) {
      static_assert((D::value * kE) % 16 == 0,
                    "GMMA operand: a repeat of the partitioned sub-tile is not a multiple of 16 bytes away "
                    "[wgmma descriptors address 16-byte units]");
      return Int<D::value * kE / 16>{};
    } else {
      TESSERA_ASSERT((int(d) * kE) % 16 == 0);
      return int(d) * kE / 16;
    }
  }
};

// The descriptor tensor of a partitioned operand: (V, REST...) in shared
// memory -> (_1, REST...) of descriptors (see the top of the file).
// @law shape(result) == (_1, shape of REST...)
// @law result(0, r).start_address() == shared address of t(0, r) before the
//      swizzle (== after it: a sub-tile starts on a pattern row), for every r
// @law the wgmma reading result(0, r) reads element (mn, k) of t(_, r) where
//      t(mn + MN k, r) lives (checked at compile time, element by element)
template <class T>
using gmma_iterator_t = std::remove_cvref_t<decltype(std::declval<T const&>().data())>;

template <class Inner>
inline constexpr bool gmma_static_layout_v = is_static_v<typename Inner::shape_type> && is_static_v<typename Inner::stride_type>;

// Each rule is checked only once the ones before it hold, so a bad operand
// fails the build with one error, the first rule it breaks.
template <GMMA::Major kMajor, int kMN, int kK, class ValType, class TensorT>
TESSERA_HOST_DEVICE auto make_gmma_desc_tensor(TensorT const& t) {
  using T = std::remove_cvref_t<TensorT>;
  using Inner = std::remove_cvref_t<decltype(get_nonswizzle_portion(t.layout()))>;
  using SwizzleT = decltype(get_swizzle_portion(t.layout()));
  constexpr int kE = int(sizeof(typename T::value_type));
  if constexpr (std::is_same_v<typename T::value_type, arch::GmmaDescriptor>) {
    return t;  // already descriptors
  } else if constexpr (!is_smem_v<gmma_iterator_t<T>>) {
    static_assert(is_smem_v<gmma_iterator_t<T>>,
                  "GMMA SS atom: A and B must be shared-memory tensors [make_tensor(make_smem_ptr(p), layout)]");
    return t;
  } else if constexpr (kE != int(sizeof(ValType))) {
    static_assert(kE == int(sizeof(ValType)),
                  "GMMA SS atom: the operand tensor's element size differs from the atom's input type");
    return t;
  } else if constexpr (!gmma_static_layout_v<Inner>) {
    static_assert(gmma_static_layout_v<Inner>,
                  "GMMA SS atom: the operand's layout must be static [tile_to_shape(GMMA::Layout_*_Atom<T>{}, ...)]");
    return t;
  } else if constexpr (decltype(size(layout<0>(Inner{})))::value != kMN * kK) {
    static_assert(decltype(size(layout<0>(Inner{})))::value == kMN * kK,
                  "GMMA SS atom: mode 0 is not the atom's (MN, K) sub-tile [partition with partition_A / partition_B]");
    return t;
  } else {
    using VLayout = std::remove_cvref_t<decltype(layout<0>(Inner{}))>;
    constexpr gmma_operand_plan kPlan = plan_gmma_operand<kMajor, kE, kMN, kK, SwizzleT, VLayout>();
    if constexpr (!kPlan.swizzled) {
      static_assert(kPlan.swizzled,
                    "GMMA SS atom: the operand tile's swizzle is not a wgmma mode [none (interleaved) or "
                    "Swizzle<1|2|3, 4 - log2(sizeof(T)), 3>: tile_to_shape(GMMA::Layout_K_SW128_Atom<T>{}, tile) "
                    "or ss_smem_selector]");
      return t;
    } else if constexpr (!kPlan.canonical) {
      static_assert(kPlan.canonical,
                    "GMMA SS atom: the operand sub-tile is not the canonical wgmma layout of its swizzle and major "
                    "order [K-major: tile GMMA::Layout_K_{INTER,SW32,SW64,SW128}_Atom<T>; MN-major (16-bit "
                    "only): GMMA::Layout_MN_*_Atom<T>; and pass the same GMMA::Major to the atom]");
      return t;
    } else {
      Inner const inner = get_nonswizzle_portion(t.layout());
      auto const base = raw_pointer_cast(t.data());
      std::uint32_t const offset_bytes = std::uint32_t(std::int64_t(offset_before_swizzle(t.layout())) * kE);
#if defined(__CUDA_ARCH__)
      std::uint32_t const base_addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(base));
      TESSERA_ASSERT(base_addr % kPlan.period == 0);
      std::uint32_t const start = base_addr + offset_bytes;
#else
      // No shared window on the host: the start field holds the offset from
      // the tensor's base, so host code can inspect the fields.
      (void)base;
      std::uint32_t const start = offset_bytes;
#endif
      arch::GmmaDescriptor const desc = arch::make_gmma_desc(start, kPlan.mode, kPlan.lbo, kPlan.sbo);
      // The repeats: modes 1.. of the inner layout, strides in 16-byte units.
      auto rest = [&]<int... I>(seq<I...>) {
        return make_layout(make_shape(_1{}, shape<I + 1>(inner)...),
                           make_stride(_0{}, transform_leaf(stride<I + 1>(inner), to_desc_units<kE>{})...));
      }(make_seq<Inner::rank - 1>{});
      return make_tensor(GMMA::DescriptorIterator{desc}, rest);
    }
  }
}

}  // namespace detail

namespace detail {
// The (D, A, B) type triples wgmma has, each with its arch family for the
// device code: the one list SM90_GMMA_SS checks against and dispatches on.
template <class D, class A, class B>
struct gmma_family {
  static constexpr bool exists = false;
};
#if defined(__CUDACC__)
#define TESSERA_GMMA_FAMILY(D, A, B, F)     \
  template <>                               \
  struct gmma_family<D, A, B> {             \
    static constexpr bool exists = true;    \
    using type = arch::F;                   \
  };
#else
#define TESSERA_GMMA_FAMILY(D, A, B, F)     \
  template <>                               \
  struct gmma_family<D, A, B> {             \
    static constexpr bool exists = true;    \
  };
#endif
TESSERA_GMMA_FAMILY(half_t, half_t, half_t, F16F16F16)
TESSERA_GMMA_FAMILY(float, half_t, half_t, F32F16F16)
TESSERA_GMMA_FAMILY(float, bfloat16_t, bfloat16_t, F32BF16BF16)
TESSERA_GMMA_FAMILY(float, tfloat32_t, tfloat32_t, F32TF32TF32)
TESSERA_GMMA_FAMILY(std::int32_t, std::int8_t, std::int8_t, S32S8S8)
TESSERA_GMMA_FAMILY(std::int32_t, std::uint8_t, std::uint8_t, S32U8U8)
TESSERA_GMMA_FAMILY(float, float_e4m3_t, float_e4m3_t, F32E4M3E4M3)
TESSERA_GMMA_FAMILY(float, float_e4m3_t, float_e5m2_t, F32E4M3E5M2)
TESSERA_GMMA_FAMILY(float, float_e5m2_t, float_e4m3_t, F32E5M2E4M3)
TESSERA_GMMA_FAMILY(float, float_e5m2_t, float_e5m2_t, F32E5M2E5M2)
#undef TESSERA_GMMA_FAMILY
}  // namespace detail

// One wgmma.mma_async of shape 64 x kN x (32 bytes of A): D, A, B element
// types, the major order of A and B in shared memory, the input scales.
template <class D, class A, class B, int kN, GMMA::Major kMajorA = GMMA::Major::K,
          GMMA::Major kMajorB = GMMA::Major::K, GMMA::ScaleIn kScaleA = GMMA::ScaleIn::One,
          GMMA::ScaleIn kScaleB = GMMA::ScaleIn::One>
struct SM90_GMMA_SS {
  static constexpr int kK = 32 / int(sizeof(A));
  static_assert(detail::gmma_family<D, A, B>::exists,
                "SM90_GMMA_SS: no wgmma for these types [D,A,B = f16,f16,f16 | f32,f16,f16 | f32,bf16,bf16 | "
                "f32,tf32,tf32 | s32,s8,s8 | s32,u8,u8 | f32,e4m3|e5m2,e4m3|e5m2]");
  static_assert(kN >= 8 && kN <= 256 && kN % 8 == 0, "SM90_GMMA_SS: N must be a multiple of 8 in [8, 256]");
  static_assert(sizeof(A) == sizeof(B), "SM90_GMMA_SS: A and B must have the same element size");
  static_assert(sizeof(A) == 2 || (kMajorA == GMMA::Major::K && kMajorB == GMMA::Major::K),
                "SM90_GMMA_SS: only 16-bit operands may be MN-major (wgmma transposes f16/bf16 only)");
};

// The RS form: A from registers (K-major by construction), B from shared
// memory. Same types and shapes as the SS form.
template <class D, class A, class B, int kN, GMMA::Major kMajorA = GMMA::Major::K,
          GMMA::Major kMajorB = GMMA::Major::K, GMMA::ScaleIn kScaleA = GMMA::ScaleIn::One,
          GMMA::ScaleIn kScaleB = GMMA::ScaleIn::One>
struct SM90_GMMA_RS : SM90_GMMA_SS<D, A, B, kN, GMMA::Major::K, kMajorB, kScaleA, kScaleB> {
  static_assert(kMajorA == GMMA::Major::K,
                "SM90_GMMA_RS: A comes from registers, where it is K-major; tnspA must be GMMA::Major::K");
};

template <class D, class A, class B, int kN, GMMA::Major kMajorA, GMMA::Major kMajorB, GMMA::ScaleIn kScaleA,
          GMMA::ScaleIn kScaleB>
struct MMA_Traits<SM90_GMMA_SS<D, A, B, kN, kMajorA, kMajorB, kScaleA, kScaleB>> {
  using Op = SM90_GMMA_SS<D, A, B, kN, kMajorA, kMajorB, kScaleA, kScaleB>;
  static constexpr int kK = Op::kK;

  using ValTypeD = D;
  using ValTypeA = A;
  using ValTypeB = B;
  using ValTypeC = D;

  using Shape_MNK = Shape<_64, Int<kN>, Int<kK>>;
  using ThrID = Layout<_128>;
  using ALayout = GMMA::ABLayout<64, kK>;   // (T128,(M64,K)) -> m + 64k
  using BLayout = GMMA::ABLayout<kN, kK>;   // (T128,(N,K)) -> n + N k
  using CLayout = GMMA::CLayout_64xN<kN>;   // (T128,V) -> m + 64n

  // scale-d of the instructions this atom issues next.
  GMMA::ScaleOut accumulate_ = GMMA::ScaleOut::One;

  // Descriptor tensors (_1, REST...) of partitioned shared-memory operands.
  template <class ATensor>
  TESSERA_HOST_DEVICE static auto make_fragment_A(ATensor const& a) {
    return detail::make_gmma_desc_tensor<kMajorA, 64, kK, A>(a);
  }
  template <class BTensor>
  TESSERA_HOST_DEVICE static auto make_fragment_B(BTensor const& b) {
    return detail::make_gmma_desc_tensor<kMajorB, kN, kK, B>(b);
  }

  // The rules D and C keep in both forms: the same accumulator fragment of
  // the atom's D type, one atom's values, stored in index order.
  template <class TD, class TC>
  static constexpr void check_accumulators() {
    using DT = std::remove_cvref_t<TD>;
    using CT = std::remove_cvref_t<TC>;
    static_assert(std::is_same_v<typename DT::value_type, typename CT::value_type> &&
                      std::is_same_v<typename DT::value_type, D>,
                  "GMMA atom: D and C must be the same accumulator fragment of the atom's D type "
                  "[call gemm(tiled_mma, A, B, C)]");
    static_assert(decltype(size(std::declval<CT const&>().layout()))::value == decltype(size<1>(CLayout{}))::value,
                  "GMMA atom: the accumulator slice is not one atom's values [pass tCrC(_, m, n)]");
    static_assert(is_compact_identity<std::remove_cvref_t<decltype(std::declval<CT const&>().layout())>>(),
                  "GMMA atom: the accumulator slice must be stored in index order [a slice tCrC(_, m, n) of a "
                  "register fragment from partition_fragment_C]");
  }

#if defined(__CUDA_ARCH__)
  // The wgmma of this atom, and D's storage as its accumulator registers.
  using Wgmma = arch::Wgmma<typename detail::gmma_family<D, A, B>::type, kN>;
  template <class TD, class TC>
  __device__ static auto& accumulator_registers(TD& d, TC const& c) {
    using Reg = typename Wgmma::CRegister;
    static_assert(sizeof(D) * decltype(size<1>(CLayout{}))::value == sizeof(Reg) * Wgmma::kRegsD,
                  "GMMA atom: accumulator values do not fill the instruction's registers");
    TESSERA_ASSERT(&d(0) == &c(0));
    (void)c;
    return *reinterpret_cast<Reg(*)[Wgmma::kRegsD]>(&d(0));
  }
#endif

  // D += A * B (or D = A * B under ScaleOut::Zero) on one sub-tile: A and B
  // are descriptor tensors or shared-memory sub-tiles, D and C the same
  // register fragment of size<1>(CLayout) values.
  template <class TD, class TA, class TB, class TC>
  TESSERA_HOST_DEVICE static void mma_unpack(MMA_Traits const& traits, TD&& d, TA const& a, TB const& b,
                                             TC const& c) {
    check_accumulators<TD, TC>();
#if defined(__CUDA_ARCH__)
    std::uint64_t const desc_a = detail::make_gmma_desc_tensor<kMajorA, 64, kK, A>(a)(0).desc;
    std::uint64_t const desc_b = detail::make_gmma_desc_tensor<kMajorB, kN, kK, B>(b)(0).desc;
    Wgmma::template ss<kMajorA == GMMA::Major::MN ? 1 : 0, kMajorB == GMMA::Major::MN ? 1 : 0, int(kScaleA),
                       int(kScaleB)>(accumulator_registers(d, c), desc_a, desc_b, int(traits.accumulate_));
#else
    static_assert(sizeof(TD) == 0, "GMMA atoms execute only in device code compiled for sm_90a");
    (void)traits, (void)d, (void)a, (void)b, (void)c;
#endif
  }
};

namespace GMMA {
// (T128, V) -> m + 64 k of the RS form's A (64 x K), per warp the mma.sync
// m16nXk A fragment on rows 16 w .. 16 w + 15: register r = h + 2 kk of
// thread (w, g, q) holds row 16 w + g + 8 h, columns E q + e + 4 E kk of
// one 8 E-wide K half (E = elements per register).
template <int kElemBytes>
using ALayout_RS_64xK = std::conditional_t<
    kElemBytes == 2, Layout<Shape<Shape<_4, _8, _4>, Shape<_2, _2, _2>>, Stride<Stride<_128, _1, _16>, Stride<_64, _8, _512>>>,
    std::conditional_t<kElemBytes == 4,
                       Layout<Shape<Shape<_4, _8, _4>, Shape<_2, _2>>, Stride<Stride<_64, _1, _16>, Stride<_8, _256>>>,
                       Layout<Shape<Shape<_4, _8, _4>, Shape<_4, _2, _2>>,
                              Stride<Stride<_256, _1, _16>, Stride<_64, _8, _1024>>>>>;
}  // namespace GMMA

template <class D, class A, class B, int kN, GMMA::Major kMajorA, GMMA::Major kMajorB, GMMA::ScaleIn kScaleA,
          GMMA::ScaleIn kScaleB>
struct MMA_Traits<SM90_GMMA_RS<D, A, B, kN, kMajorA, kMajorB, kScaleA, kScaleB>>
    : MMA_Traits<SM90_GMMA_SS<D, A, B, kN, GMMA::Major::K, kMajorB, kScaleA, kScaleB>> {
  using SS = MMA_Traits<SM90_GMMA_SS<D, A, B, kN, GMMA::Major::K, kMajorB, kScaleA, kScaleB>>;
  static_assert(kMajorA == GMMA::Major::K,
                "SM90_GMMA_RS: A comes from registers, where it is K-major; tnspA must be GMMA::Major::K");
  using ALayout = GMMA::ALayout_RS_64xK<int(sizeof(A))>;  // (T128,V) -> m + 64k, V = 4 registers of A

  // A is a register fragment (the default make_fragment_A); B descriptors.
  template <class ATensor>
  static void make_fragment_A(ATensor const&) = delete;

  // D += A * B on one sub-tile: A this thread's 4 registers of the atom (a
  // compact slice of a register fragment, which the wgmma reads
  // asynchronously: fence it with warpgroup_fence_operand like the
  // accumulators), B a descriptor tensor or shared-memory sub-tile.
  template <class TD, class TA, class TB, class TC>
  TESSERA_HOST_DEVICE static void mma_unpack(MMA_Traits const& traits, TD&& d, TA const& a, TB const& b,
                                             TC const& c) {
    using AT = std::remove_cvref_t<TA>;
    SS::template check_accumulators<TD, TC>();
    static_assert(!is_smem_v<std::remove_cvref_t<decltype(a.data())>> && !is_gmem_v<std::remove_cvref_t<decltype(a.data())>>,
                  "GMMA RS atom: A must be a register fragment [thr_mma.partition_fragment_A(sA), then copy into it]");
    static_assert(sizeof(typename AT::value_type) == sizeof(A) &&
                      decltype(size(a.layout()))::value * sizeof(A) == 4 * sizeof(std::uint32_t),
                  "GMMA RS atom: the A slice is not one atom's 4 registers [pass tCrA(_, m, k)]");
    static_assert(is_compact_identity<std::remove_cvref_t<decltype(a.layout())>>(),
                  "GMMA RS atom: the A slice must be stored in index order [a slice tCrA(_, m, k) of a register "
                  "fragment from partition_fragment_A]");
#if defined(__CUDA_ARCH__)
    std::uint32_t const(&ra)[4] = *reinterpret_cast<std::uint32_t const(*)[4]>(&a(0));
    std::uint64_t const desc_b = detail::make_gmma_desc_tensor<kMajorB, kN, SS::kK, B>(b)(0).desc;
    SS::Wgmma::template rs<kMajorB == GMMA::Major::MN ? 1 : 0, int(kScaleA), int(kScaleB)>(
        SS::accumulator_registers(d, c), ra, desc_b, int(traits.accumulate_));
#else
    static_assert(sizeof(TD) == 0, "GMMA atoms execute only in device code compiled for sm_90a");
    (void)traits, (void)d, (void)a, (void)b, (void)c;
#endif
  }
};

// The CuTe names, N = 8 .. 256, for FORM = SS or RS (OP = SM90_GMMA_SS or
// SM90_GMMA_RS).
#define TESSERA_GMMA_16BIT_NAME(N, FORM, OP, DAB, D, AB)                                                          \
  template <GMMA::Major tA = GMMA::Major::K, GMMA::Major tB = GMMA::Major::K,                                     \
            GMMA::ScaleIn sA = GMMA::ScaleIn::One, GMMA::ScaleIn sB = GMMA::ScaleIn::One>                         \
  using SM90_64x##N##x16_##DAB##_##FORM = OP<D, AB, AB, N, tA, tB, sA, sB>;
#define TESSERA_GMMA_TN_NAME(N, FORM, OP, KDIM, DAB, D, TA, TB)                                                      \
  template <GMMA::ScaleIn sA = GMMA::ScaleIn::One, GMMA::ScaleIn sB = GMMA::ScaleIn::One>                         \
  using SM90_64x##N##x##KDIM##_##DAB##_##FORM##_TN = OP<D, TA, TB, N, GMMA::Major::K, GMMA::Major::K, sA, sB>;
#define TESSERA_GMMA_FORM_NAMES(N, FORM, OP)                                                                      \
  TESSERA_GMMA_16BIT_NAME(N, FORM, OP, F16F16F16, half_t, half_t)                                                 \
  TESSERA_GMMA_16BIT_NAME(N, FORM, OP, F32F16F16, float, half_t)                                                  \
  TESSERA_GMMA_16BIT_NAME(N, FORM, OP, F32BF16BF16, float, bfloat16_t)                                            \
  TESSERA_GMMA_TN_NAME(N, FORM, OP, 8, F32TF32TF32, float, tfloat32_t, tfloat32_t)                                \
  TESSERA_GMMA_TN_NAME(N, FORM, OP, 32, F32E4M3E4M3, float, float_e4m3_t, float_e4m3_t)                           \
  TESSERA_GMMA_TN_NAME(N, FORM, OP, 32, F32E4M3E5M2, float, float_e4m3_t, float_e5m2_t)                           \
  TESSERA_GMMA_TN_NAME(N, FORM, OP, 32, F32E5M2E4M3, float, float_e5m2_t, float_e4m3_t)                           \
  TESSERA_GMMA_TN_NAME(N, FORM, OP, 32, F32E5M2E5M2, float, float_e5m2_t, float_e5m2_t)                           \
  using SM90_64x##N##x32_S32S8S8_##FORM##_TN = OP<std::int32_t, std::int8_t, std::int8_t, N>;                     \
  using SM90_64x##N##x32_S32U8U8_##FORM##_TN = OP<std::int32_t, std::uint8_t, std::uint8_t, N>;
#define TESSERA_GMMA_NAMES(N) TESSERA_GMMA_FORM_NAMES(N, SS, SM90_GMMA_SS) TESSERA_GMMA_FORM_NAMES(N, RS, SM90_GMMA_RS)

TESSERA_GMMA_NAMES(8)
TESSERA_GMMA_NAMES(16)
TESSERA_GMMA_NAMES(24)
TESSERA_GMMA_NAMES(32)
TESSERA_GMMA_NAMES(40)
TESSERA_GMMA_NAMES(48)
TESSERA_GMMA_NAMES(56)
TESSERA_GMMA_NAMES(64)
TESSERA_GMMA_NAMES(72)
TESSERA_GMMA_NAMES(80)
TESSERA_GMMA_NAMES(88)
TESSERA_GMMA_NAMES(96)
TESSERA_GMMA_NAMES(104)
TESSERA_GMMA_NAMES(112)
TESSERA_GMMA_NAMES(120)
TESSERA_GMMA_NAMES(128)
TESSERA_GMMA_NAMES(136)
TESSERA_GMMA_NAMES(144)
TESSERA_GMMA_NAMES(152)
TESSERA_GMMA_NAMES(160)
TESSERA_GMMA_NAMES(168)
TESSERA_GMMA_NAMES(176)
TESSERA_GMMA_NAMES(184)
TESSERA_GMMA_NAMES(192)
TESSERA_GMMA_NAMES(200)
TESSERA_GMMA_NAMES(208)
TESSERA_GMMA_NAMES(216)
TESSERA_GMMA_NAMES(224)
TESSERA_GMMA_NAMES(232)
TESSERA_GMMA_NAMES(240)
TESSERA_GMMA_NAMES(248)
TESSERA_GMMA_NAMES(256)

#undef TESSERA_GMMA_NAMES
#undef TESSERA_GMMA_FORM_NAMES
#undef TESSERA_GMMA_TN_NAME
#undef TESSERA_GMMA_16BIT_NAME

}  // namespace tessera
