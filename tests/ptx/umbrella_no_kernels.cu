// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// Including <tessera/tessera.hpp> instantiates no GEMM kernel. Until session
// 28 the library launchers of simt_tiled.cuh were inline functions, whose
// bodies compiled 50 simt_tiled_sgemm_kernel instantiations (~40 s per
// architecture) into every translation unit that included the umbrella
// header: a third of the CI build. A kernel belongs to the translation unit
// that launches it. The one kernel every such unit does get is the sm_90a
// image probe (arch/sm90/sm90a_image.cuh), a template so that each unit has
// its own; every GEMM kernel's name ends in "gemm_kernel".
//
// expect-ptx: sm90a_image_probe_kernel
// expect-no-ptx: gemm_kernel
#include <tessera/tessera.hpp>
