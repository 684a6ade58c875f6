// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Architecture gates for the raw PTX wrappers in arch/sm80 and arch/sm90.
//
// Using an instruction on the wrong architecture must fail the *build*, never
// the run. nvcc compiles a .cu file once for the host and once per device
// target (-gencode); each device pass sees its own __CUDA_ARCH__. Every wrapper
// is written as
//
//   #if TESSERA_SM80_ENABLED
//     asm volatile("mma.sync ..." ...);
//   #else
//     tessera_error_requires_sm80_or_newer();
//   #endif
//
// The tessera_error_* functions below are declared and never defined. When a
// kernel that reaches a wrapper is compiled for a target that lacks the
// instruction, the call survives into PTX and ptxas stops with
//
//   ptxas fatal   : Unresolved extern function 'tessera_error_requires_sm80_or_newer'
//
// (nvlink reports an undefined reference instead under -rdc=true). A wrapper
// that no kernel calls is never emitted, so including these headers is free on
// every target. The host pass (__CUDA_ARCH__ undefined) never compiles device
// code into instructions, so it stays clean.
//
// Consequence for kernel authors: a translation unit built for several targets
// (the default "80;90a") must guard an sm_90a-only kernel body with
// `#if TESSERA_SM90A_ENABLED`, or be compiled for 90a only.

// TESSERA_DEVICE_PASS: 1 inside a device compilation pass, 0 in the host pass.
#if defined(__CUDA_ARCH__)
#define TESSERA_DEVICE_PASS 1
#else
#define TESSERA_DEVICE_PASS 0
#endif

// TESSERA_SM75_ENABLED: ldmatrix, mma.sync m16n8k8 f16 and m8n8k16 s8/u8
// exist (sm_75+).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750
#define TESSERA_SM75_ENABLED 1
#else
#define TESSERA_SM75_ENABLED 0
#endif

// TESSERA_SM80_ENABLED: cp.async, bf16/tf32/f64 mma.sync, m16n8k16, m16n8k32
// s8/u8 (sm_80+).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define TESSERA_SM80_ENABLED 1
#else
#define TESSERA_SM80_ENABLED 0
#endif

// TESSERA_SM90_ENABLED: stmatrix, mbarrier try_wait, cp.async.bulk (sm_90+).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define TESSERA_SM90_ENABLED 1
#else
#define TESSERA_SM90_ENABLED 0
#endif

// TESSERA_SM90A_ENABLED: the architecture-specific sm_90a features (wgmma,
// setmaxnreg). Only the exact sm_90a target qualifies: sm_90 without the "a"
// and any later architecture lack them.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900 && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define TESSERA_SM90A_ENABLED 1
#else
#define TESSERA_SM90A_ENABLED 0
#endif

// Declared, never defined: see the comment at the top of this file. The names
// are the error message, so keep them readable.
extern "C" __device__ void tessera_error_requires_sm75_or_newer();
extern "C" __device__ void tessera_error_requires_sm80_or_newer();
extern "C" __device__ void tessera_error_requires_sm90_or_newer();
extern "C" __device__ void tessera_error_requires_sm90a();
