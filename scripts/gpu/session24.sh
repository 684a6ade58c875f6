#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 24's device check, one lease: builds (sm_90a) the device tests in
# $T, runs each, compute-sanitizer memcheck and racecheck on each (the sm80
# GEMM test through $SM80_FILTER only); then seed_f16acc.sh on the seed
# problem and on a whole-wave shape ($SHAPES), and the SASS of the 64x128
# warp-tile kernels: registers, local-memory instructions and HMMA count.
# SAN=0 skips the sanitizers; TIMING=0 the timing. Logs under $OUT.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-s24}
mkdir -p "$OUT"
export OUT
export PATH="$PATH:/usr/local/cuda/bin"
BUILD=${BUILD:-build-gpu}
export BUILD
start=$(date +%s)
T="${T:-device_test_cooperative_gemm device_test_bulk_copy_sm90 device_test_cluster_geometry_sm90 device_test_cooperative_copy device_test_gemm_sm80_indexing device_test_gemm_sm80}"
SM80_FILTER="${SM80_FILTER:-*variant_t128x256_w4*:*variant_t128x128_spread_acc16*:*f16_f16acc16_tn_ldpad200x136x72*}"
T="$T" EXTRA=tessera_runtime NO_SAN=device_test_gemm_sm80_indexing TEST_TIMEOUT=400 \
  SAN_FILTER="device_test_gemm_sm80=$SM80_FILTER" bash scripts/gpu/targets.sh
# SASS of the tuning unit: per kernel of the 64x128 warp tile, registers,
# STL/LDL (local memory) and HMMA counts.
obj=$(find "$BUILD" -name 'sm80_tensorop_tuning.cu.o' | head -1)
if [ -n "$obj" ]; then
  cuobjdump -sass "$obj" > "$OUT/tuning.sass" 2>/dev/null
  cuobjdump -res-usage "$obj" 2>/dev/null | grep -A1 "Li64ELi128ELi64" | grep -o "REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" | tr '\n' ' '; echo
  awk '/Function : .*Li64ELi128ELi64/{f=$3; next} /Function :/{f=""} f!="" && /STL|LDL/{n[f]++} f!="" && /HMMA/{h[f]++}
       END{for (k in h) printf "%s... HMMA %d STL/LDL %d\n", substr(k,1,90), h[k], n[k]}' "$OUT/tuning.sass"
fi
[ "${TIMING:-1}" = 0 ] || SHAPES="${SHAPES:-5120 5120 4096;4224 4096 4096}" bash scripts/gpu/seed_f16acc.sh "${ROUNDS:-2}" 2>&1 | grep -v "^$"
echo "total $(( $(date +%s) - start ))s"
