#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 25's device check, one lease: builds (sm_90a) the device tests in
# $T and the `tessera` tool, runs each test with compute-sanitizer memcheck
# and racecheck (targets.sh), then `tessera bench` on the issue targets that
# depend on the machine: f16acc 5120²×4096 (the Ampere path's row beside
# cuBLAS) and bf16 8192³ / 4096³. BENCH=0 skips the benchmark. Logs under $OUT.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-s25}
mkdir -p "$OUT"
export OUT
export PATH="$PATH:/usr/local/cuda/bin"
BUILD=${BUILD:-build-gpu}
export BUILD
start=$(date +%s)
T="${T:?name the device test targets in T}" EXTRA="${EXTRA:-tessera_tool}" TEST_TIMEOUT=400 bash scripts/gpu/targets.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv,noheader
if [ "${BENCH:-1}" != 0 ] && [ -x "$BUILD/bin/tessera" ]; then
  "$BUILD/bin/tessera" bench --shapes 5120x5120x4096 --types f16acc > "$OUT/bench_f16acc.txt" 2> "$OUT/bench_f16acc.err"
  cat "$OUT/bench_f16acc.txt"
  "$BUILD/bin/tessera" bench --shapes 8192x8192x8192,4096x4096x4096,4096x6144x4096 --types bf16 \
    > "$OUT/bench_bf16.txt" 2> "$OUT/bench_bf16.err"
  cat "$OUT/bench_bf16.txt"
fi
echo "total $(( $(date +%s) - start ))s"
