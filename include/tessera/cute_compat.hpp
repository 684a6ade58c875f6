// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// CuTe's macro spellings, for porting CuTe code (the seeds' snippets among
// it) with `using namespace tessera;` and no renaming:
//
//   CUTE_STATIC_ASSERT_V(cond[, msg])   TESSERA_STATIC_ASSERT_V
//   CUTE_HOST_DEVICE, CUTE_DEVICE, CUTE_HOST
//   CUTE_UNROLL, CUTE_NO_UNROLL
//   CUTE_INVALID_CONTROL_PATH(msg)      traps (device) / aborts (host)
//
// Each is defined only where it is not defined already, so a translation
// unit that also includes CuTe keeps CuTe's. Not part of <tessera/tessera.hpp>:
// Tessera's own headers never name a CUTE_ macro.

#include <tessera/config.hpp>
#include <tessera/core/integral_constant.hpp>

#ifndef CUTE_STATIC_ASSERT_V
#  define CUTE_STATIC_ASSERT_V(...) TESSERA_STATIC_ASSERT_V(__VA_ARGS__)
#endif
#ifndef CUTE_HOST_DEVICE
#  define CUTE_HOST_DEVICE TESSERA_HOST_DEVICE TESSERA_INLINE
#endif
#ifndef CUTE_DEVICE
#  define CUTE_DEVICE TESSERA_DEVICE TESSERA_INLINE
#endif
#ifndef CUTE_HOST
#  define CUTE_HOST TESSERA_HOST TESSERA_INLINE
#endif
#ifndef CUTE_UNROLL
#  define CUTE_UNROLL TESSERA_UNROLL
#endif
#ifndef CUTE_NO_UNROLL
#  define CUTE_NO_UNROLL TESSERA_NO_UNROLL
#endif
#ifndef CUTE_INVALID_CONTROL_PATH
#  if defined(__CUDA_ARCH__)
#    define CUTE_INVALID_CONTROL_PATH(msg) (printf("%s:%d: invalid control path: %s\n", __FILE__, __LINE__, msg), __trap())
#  else
#    include <cstdio>
#    include <cstdlib>
#    define CUTE_INVALID_CONTROL_PATH(msg) \
       (std::fprintf(stderr, "%s:%d: invalid control path: %s\n", __FILE__, __LINE__, msg), std::abort())
#  endif
#endif
