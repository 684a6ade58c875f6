// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// createpolicy is sm_80 (PTX ISA 7.4): built for sm_80, make_l2_cache_policy
// compiles (ptxas included) to createpolicy.fractional, the fraction an f32
// register when it is a run-time value. (For sm_75 the build fails by name:
// compile_fail/arch_createpolicy_requires_sm80.cu.)
// nvcc-flags: -gencode=arch=compute_80,code=sm_80
//
// expect-ptx: createpolicy.fractional.L2::evict_last.b64
// expect-ptx: createpolicy.fractional.L2::evict_first.L2::evict_first.b64
// expect-ptx: .target sm_80
#include <tessera/tensor/cache_policy.hpp>

using namespace tessera;

__global__ void policies(std::uint64_t* out, float fraction) {
  out[0] = make_l2_cache_policy<L2Priority::evict_last>().value;
  out[1] = make_l2_cache_policy<L2Priority::evict_first, L2Priority::evict_first>(fraction).value;
}
