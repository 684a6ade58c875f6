#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Builds the SGEMM ladder with nvcc for sm_90a, runs compute-sanitizer
# memcheck and racecheck on small ragged shapes, then the benchmark, and prints a compact
# table (TFLOP/s per rung and size) last. Logs go to $OUT (default
# /tmp/tessera-out/sgemm_ladder). Extra arguments go to the benchmark run.
# Exit status: that of the first failing step. Sanitizer steps are bounded
# (150 s + 120 s); the whole script is expected to take a few minutes on an
# H100 (not measured yet).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-out/sgemm_ladder}
BUILD=${BUILD:-build-ladder-gpu}
mkdir -p "$OUT" "$BUILD"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
SANITIZER=$(command -v compute-sanitizer || echo "$(dirname "$NVCC")/compute-sanitizer")
rc=0

echo "== build ($NVCC)"
"$NVCC" -O3 -std=c++17 -lineinfo -gencode=arch=compute_90a,code=sm_90a -Xptxas -v \
  -o "$BUILD/sgemm_ladder" examples/sgemm_ladder/main.cu -lcublas > "$OUT/ptxas.log" 2>&1 \
  || { echo "build failed:"; tail -n 30 "$OUT/ptxas.log"; exit 1; }
grep -E "registers|spill" "$OUT/ptxas.log" | grep -v "0 bytes spill stores, 0 bytes spill loads" | head -n 20

echo "== compute-sanitizer memcheck (check suite + 257x129x65)"
timeout 150 "$SANITIZER" --tool memcheck --error-exitcode 3 "$BUILD/sgemm_ladder" --sizes 257x129x65 --reps 2 \
  > "$OUT/memcheck.log" 2>&1
mc=$?
tail -n 3 "$OUT/memcheck.log"
grep -m 5 -E "Invalid|ERROR SUMMARY" "$OUT/memcheck.log"
[ $mc -ne 0 ] && { echo "memcheck: rc=$mc (124 = timed out)"; rc=$mc; }

# The double-buffered rungs (7, 8) rely on one barrier per k tile: racecheck
# looks for shared-memory hazards in our kernels (not cuBLAS). Bounded: slow.
echo "== compute-sanitizer racecheck (257x129x65, rungs 2-8)"
timeout 120 "$SANITIZER" --tool racecheck --error-exitcode 3 "$BUILD/sgemm_ladder" --no-suite \
  --sizes 257x129x65 --reps 1 \
  --rungs k2_smem,k3_thread_tile_1d,k4_thread_tile_2d,k5_vectorized,k6_warp_tile,k7_double_buffer,k8_wmma \
  > "$OUT/racecheck.log" 2>&1
rcr=$?
grep -m 3 -E "RACECHECK SUMMARY|Race reported|hazard" "$OUT/racecheck.log"
[ $rcr -ne 0 ] && { echo "racecheck: rc=$rcr (124 = timed out)"; [ $rc -eq 0 ] && rc=$rcr; }

echo "== benchmark"
"$BUILD/sgemm_ladder" --csv "$OUT/sgemm_ladder.csv" "$@" > "$OUT/bench.log" 2>&1
br=$?
[ $br -ne 0 ] && { echo "benchmark: rc=$br"; [ $rc -eq 0 ] && rc=$br; }
head -n 3 "$OUT/bench.log"
grep -E "FAIL|SKIP" "$OUT/bench.log" | head -n 8

echo "== TFLOP/s (x_cuBLAS) per timed size; full table in bench.log"
if [ -f "$OUT/sgemm_ladder.csv" ]; then
  awk -F, 'NR > 1 && $6 != "nan" {
      if (!($1 in seen)) { seen[$1] = 1; sizes[++ns] = $1 }
      if (!($5 in seenr)) { seenr[$5] = 1; rungs[++nr] = $5 }
      cell[$5, $1] = sprintf("%.1f(%.2f)%s", $7, $8, $13 == "PASS" ? "" : "!")
    }
    END {
      printf "%-18s", "rung"; for (s = 1; s <= ns; ++s) printf " %16s", sizes[s]; printf "\n"
      for (r = 1; r <= nr; ++r) {
        printf "%-18s", rungs[r]
        for (s = 1; s <= ns; ++s) printf " %16s", ((rungs[r], sizes[s]) in cell) ? cell[rungs[r], sizes[s]] : "skip"
        printf "\n"
      }
    }' "$OUT/sgemm_ladder.csv"
fi
tail -n 1 "$OUT/bench.log"
exit $rc
