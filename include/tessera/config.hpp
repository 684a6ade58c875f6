// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Build configuration shared by every Tessera header: function qualifiers,
// run-time assertions and the library version.

#define TESSERA_VERSION_MAJOR 0
#define TESSERA_VERSION_MINOR 1
#define TESSERA_VERSION_PATCH 0
#define TESSERA_VERSION (TESSERA_VERSION_MAJOR * 10000 + TESSERA_VERSION_MINOR * 100 + TESSERA_VERSION_PATCH)

#if defined(__CUDACC__)
#  define TESSERA_HOST_DEVICE __host__ __device__
#  define TESSERA_DEVICE __device__
#  define TESSERA_HOST __host__
#  define TESSERA_INLINE __forceinline__
#else
#  define TESSERA_HOST_DEVICE
#  define TESSERA_DEVICE
#  define TESSERA_HOST
#  define TESSERA_INLINE inline
#endif

#define TESSERA_STRINGIFY_(x) #x
#define TESSERA_STRINGIFY(x) TESSERA_STRINGIFY_(x)

// Run-time invariant check. Compiled out under NDEBUG. Usable in device code:
// the device pass prints the failed condition and traps.
#if defined(NDEBUG)
#  define TESSERA_ASSERT(cond) ((void)0)
#elif defined(__CUDA_ARCH__)
#  define TESSERA_ASSERT(cond)                                                        \
    ((cond) ? (void)0                                                                 \
            : (printf("%s:%d: TESSERA_ASSERT(%s) failed\n", __FILE__, __LINE__, #cond), \
               __trap()))
#else
#  include <cstdio>
#  include <cstdlib>
#  define TESSERA_ASSERT(cond)                                                                    \
    ((cond) ? (void)0                                                                             \
            : (std::fprintf(stderr, "%s:%d: TESSERA_ASSERT(%s) failed\n", __FILE__, __LINE__, #cond), \
               std::abort()))
#endif

// Loop unrolling hint that works under both g++ and nvcc.
#if defined(__CUDA_ARCH__)
#  define TESSERA_UNROLL _Pragma("unroll")
#  define TESSERA_NO_UNROLL _Pragma("unroll 1")
#else
#  define TESSERA_UNROLL
#  define TESSERA_NO_UNROLL
#endif
