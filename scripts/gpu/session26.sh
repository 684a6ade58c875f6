#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 26's device check, one lease: builds (sm_90a, examples on) the
# device tests in $T and seed 002's hopper_cute example; runs each test with
# compute-sanitizer memcheck and racecheck (as targets.sh does); runs
# hopper_cute's checks (every rung against an fp64 reference on awkward
# shapes), compute-sanitizer memcheck/racecheck/synccheck on the rungs in
# $SAN_RUNGS at one small shape, then times the rungs in $RUNGS beside cuBLAS
# (--rungs, so no slower rung shares the set) at $SIZES, $ROUNDS times.
# Logs under $OUT.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-s26}
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
BUILD=${BUILD:-build-gpu}
T=${T:-}
start=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  -DTESSERA_ENABLE_EXAMPLES=ON > "$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
# shellcheck disable=SC2086
cmake --build "$BUILD" -j "$(nproc)" --target $T hopper_cute -- -k 0 > "$OUT/build.log" 2>&1 ||
  { echo "build failed:"; grep -E "error" "$OUT/build.log" | head -30; }
echo "build took $(( $(date +%s) - start ))s"
for t in $T; do
  timeout 400 "./$BUILD/tests/$t" > "$OUT/$t.log" 2>&1
  printf '%-40s rc=%d %s\n' "$t" $? "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
  grep -E "Failure|FAILED  \]|error" "$OUT/$t.log" | head -6
  for tool in memcheck racecheck; do
    TESSERA_TEST_IN_PROCESS=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 99 "./$BUILD/tests/$t" \
      > "$OUT/$t.$tool.log" 2>&1
    printf '  %-10s rc=%d %s\n' $tool $? "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$t.$tool.log" | tail -1 | sed 's/=========//')"
  done
done
exe=$(find "$BUILD" -type f -name hopper_cute -perm -u+x | head -1)
if [ -n "$exe" ] && [ "${HC:-1}" != 0 ]; then
  cuobjdump -res-usage "$exe" 2>/dev/null | grep -A1 -E "h4_tma_store|h8_pingpong" | grep -oE "Function [^ ]*|REG:[0-9]+|STACK:[0-9]+|LOCAL:[0-9]+" |
    paste - - - - > "$OUT/hc_resources.txt"
  cat "$OUT/hc_resources.txt"
  cuobjdump -sass "$exe" > "$OUT/hc.sass" 2>/dev/null
  echo "HGMMA per h4_tma_store instantiation: $(awk '/Function :/{f=$3} /HGMMA/{if(f ~ /h4_tma_store|h8_pingpong/) c[f]++} END{for(k in c) printf "%d ", c[k]}' "$OUT/hc.sass")"
  grep -cE "LDL|STL" "$OUT/hc.sass" | sed 's/^/LDL+STL lines in the example: /'
  timeout 120 "$exe" --sizes 256x512x1024 --reps 2 > "$OUT/hc_check.txt" 2>&1
  echo "hopper_cute checks rc=$?: $(grep -c ' ok$' "$OUT/hc_check.txt") ok, $(grep -cE 'FAILED|differs' "$OUT/hc_check.txt") failed"
  grep -E "FAILED|differs|h7|h8" "$OUT/hc_check.txt" | head -12
  for rung in ${SAN_RUNGS:-h7_pipeline h8_pingpong}; do
    for tool in memcheck racecheck synccheck; do
      timeout 120 compute-sanitizer --tool $tool --error-exitcode 99 "$exe" --rungs "$rung" --sizes 300x520x1000 \
        --reps 1 --no-suite > "$OUT/hc_$rung.$tool.log" 2>&1
      printf '%s %-10s rc=%d %s\n' "$rung" $tool $? \
        "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/hc_$rung.$tool.log" | tail -1 | sed 's/=========//')"
    done
  done
  for r in $(seq 1 "${ROUNDS:-2}"); do
    timeout 150 "$exe" --sizes "${SIZES:-4096,8192}" --reps "${REPS:-30}" --no-suite --rungs "${RUNGS:-h5_grouped,h6_cluster,h7_pipeline}" \
      > "$OUT/hc_time$r.txt" 2>&1
    grep -E "^ *[0-9]+x" "$OUT/hc_time$r.txt"
  done
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv,noheader
echo "total $(( $(date +%s) - start ))s"
