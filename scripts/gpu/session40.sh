#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# What session 39 built and could not run, in one device call (a cold H200:
# ~200 s of split-compile build, then ~150 s):
#   1. builds device_test_gemm_sm80, device_test_arch_sm80_cp_async,
#      device_test_hopper_gemm_sm90 and the tool (SPLIT_COMPILE=1);
#   2. runs their session-39 cases -- the copy-warp seed tile
#      (Sm80Variant::t128x128_ws), cp.async completing an mbarrier phase, the
#      skinny defaults -- then memcheck and racecheck on the same cases;
#   3. times the cp.async, TMA-fed and copy-warp seed tiles beside cuBLAS
#      (scripts/gpu/seed_f16acc.sh, 5120^2 x 4096 and 4224 x 4096 x 4096).
# Logs under $OUT; prints the summaries.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-s40}
cases='*ws_*:*_ws*:*CopyWarp*:*Mbarrier*:*Skinny*'
env OUT="$OUT/t" T="device_test_gemm_sm80 device_test_arch_sm80_cp_async device_test_hopper_gemm_sm90" HC=0 \
  HC_TARGET= SPLIT_COMPILE=1 STEPS="build test" FILTER="$cases" SAN_FILTER="$cases" \
  bash scripts/gpu/session28.sh 2>&1 | tail -14
env OUT="$OUT/s" VARIANTS=tile128x128,t128x128_tma,t128x128_ws SHAPES="5120 5120 4096;4224 4096 4096" \
  bash scripts/gpu/seed_f16acc.sh 2 2>&1 | grep -E "TFLOP|rel.diff|round|built|failed|error" | head -30
