// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// createpolicy: makes an L2 cache eviction policy, an opaque 64-bit value
// that memory instructions with the .L2::cache_hint qualifier take as their
// last operand (TMA loads and prefetches in arch/sm90/tma.cuh). Minimum
// architecture: sm_80 (PTX ISA 7.4).
//
//   createpolicy.fractional.L2::<primary>{.L2::<secondary>}.b64 policy, fraction;
//     primary   = evict_first | evict_normal | evict_last | evict_unchanged
//     secondary = evict_first | evict_unchanged (the default when left out)
//
// A policy is a hint: the data a hinted access reads or writes is the same
// with any policy. What it asks of L2: each access made under it gets the
// primary eviction priority with probability `fraction`, the secondary one
// otherwise (so with fraction 1.0, the default, the secondary never
// applies). evict_first lines go before evict_normal ones (streaming data
// read once), evict_last lines after them (a tile every CTA of a wave
// reads), evict_unchanged leaves a line's priority as it was.
//
// Rules:
//   - fraction lies in (0, 1]; the PTX ISA leaves any other value
//     undefined, so TESSERA_ASSERT checks it (debug builds).
//   - the value is opaque: make it with createpolicy_fractional, never
//     from a constant, whose encoding the PTX ISA does not define.
//   - a secondary priority other than evict_first or evict_unchanged fails
//     the build.
//
// The range form (createpolicy.range, a primary priority for an address
// range) and createpolicy.cvt (from a CUDA access property) are not wrapped.
// The tensor-level name is make_l2_cache_policy (tensor/cache_policy.hpp).

#include <cstdint>

#include <tessera/arch/arch.cuh>
#include <tessera/config.hpp>

namespace tessera::arch {

// An L2 eviction priority, spelled as createpolicy's .L2::<priority>
// qualifier. (Not prefetch.hpp's L2Eviction: prefetch.global.L2 has only
// evict_normal and evict_last, and a run-time enum that also held
// evict_first would let prefetch(t, first) compile.)
enum class L2Priority : std::uint8_t { evict_first, evict_normal, evict_last, evict_unchanged };

// NOTE: plain asm, not volatile: the instruction only computes a value, so
// the compiler may share one policy between the hinted accesses that use
// it or hoist it out of a loop.

// createpolicy.fractional.L2::<kPrimary>{.L2::evict_first}.b64 policy, fraction;
// sm_80 (PTX 7.4).
template <L2Priority kPrimary, L2Priority kSecondary = L2Priority::evict_unchanged>
__device__ __forceinline__ std::uint64_t createpolicy_fractional(float fraction = 1.0f) {
  static_assert(kSecondary == L2Priority::evict_first || kSecondary == L2Priority::evict_unchanged,
                "createpolicy_fractional: the secondary priority must be evict_first or evict_unchanged "
                "[createpolicy's .level::secondary_priority]");
  TESSERA_ASSERT(fraction > 0.0f && fraction <= 1.0f);
  std::uint64_t policy = 0;
#if TESSERA_SM80_ENABLED
  // The secondary qualifier only when it is not the default (evict_unchanged
  // spelled out is the same policy).
#define TESSERA_CREATEPOLICY_ASM_(QUAL) \
  asm("createpolicy.fractional" QUAL ".b64 %0, %1;\n" : "=l"(policy) : "f"(fraction))
  if constexpr (kSecondary == L2Priority::evict_first) {
    if constexpr (kPrimary == L2Priority::evict_first) TESSERA_CREATEPOLICY_ASM_(".L2::evict_first.L2::evict_first");
    else if constexpr (kPrimary == L2Priority::evict_normal) TESSERA_CREATEPOLICY_ASM_(".L2::evict_normal.L2::evict_first");
    else if constexpr (kPrimary == L2Priority::evict_last) TESSERA_CREATEPOLICY_ASM_(".L2::evict_last.L2::evict_first");
    else TESSERA_CREATEPOLICY_ASM_(".L2::evict_unchanged.L2::evict_first");
  } else {
    if constexpr (kPrimary == L2Priority::evict_first) TESSERA_CREATEPOLICY_ASM_(".L2::evict_first");
    else if constexpr (kPrimary == L2Priority::evict_normal) TESSERA_CREATEPOLICY_ASM_(".L2::evict_normal");
    else if constexpr (kPrimary == L2Priority::evict_last) TESSERA_CREATEPOLICY_ASM_(".L2::evict_last");
    else TESSERA_CREATEPOLICY_ASM_(".L2::evict_unchanged");
  }
#undef TESSERA_CREATEPOLICY_ASM_
#else
  (void)fraction;
  tessera_error_requires_sm80_or_newer();
#endif
  return policy;
}

}  // namespace tessera::arch
