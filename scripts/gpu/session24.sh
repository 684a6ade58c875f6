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
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
  -DTESSERA_ENABLE_EXAMPLES=OFF > "$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
# shellcheck disable=SC2086
cmake --build "$BUILD" -j "$(nproc)" --target $T tessera_runtime -- -k 0 > "$OUT/build.log" 2>&1 ||
  { echo "build failed:"; grep -E "error" "$OUT/build.log" | head -30; }
echo "build took $(( $(date +%s) - start ))s"
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in $T; do
  timeout 400 "./$BUILD/tests/$t" > "$OUT/$t.log" 2>&1
  printf '%-36s rc=%d %s\n' "$t" $? "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
  grep -E "Failure|FAILED  \]" "$OUT/$t.log" | head -6
  filter='*'
  [ "$t" = device_test_gemm_sm80 ] && filter="$SM80_FILTER"
  [ "$t" = device_test_gemm_sm80_indexing ] && continue  # host-only simulation
  [ "${SAN:-1}" = 0 ] && continue
  for tool in memcheck racecheck; do
    TESSERA_TEST_IN_PROCESS=1 timeout 200 "$san" --tool $tool --error-exitcode 99 "./$BUILD/tests/$t" \
      --gtest_filter="$filter" > "$OUT/$t.$tool.log" 2>&1
    printf '  %-10s rc=%d %s\n' $tool $? "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$t.$tool.log" | tail -1 | sed 's/=========//')"
  done
done
echo "tests done at $(( $(date +%s) - start ))s"
# SASS of the tuning unit: per kernel of the 64x128 warp tile, registers,
# STL/LDL (local memory) and HMMA counts.
obj=$(find "$BUILD" -name 'sm80_tensorop_tuning.cu.o' | head -1)
if [ -n "$obj" ]; then
  cuobjdump -sass "$obj" > "$OUT/tuning.sass" 2>/dev/null
  cuobjdump -res-usage "$obj" 2>/dev/null | grep -A1 "Li64ELi128ELi64" | grep -o "REG:[0-9]*\|STACK:[0-9]*\|LOCAL:[0-9]*" | tr '\n' ' '; echo
  awk '/Function : .*Li64ELi128ELi64/{f=$3; next} /Function :/{f=""} f!="" && /STL|LDL/{n[f]++} f!="" && /HMMA/{h[f]++}
       END{for (k in h) printf "%s... HMMA %d STL/LDL %d\n", substr(k,1,90), h[k], n[k]}' "$OUT/tuning.sass"
  awk '/Function : .*Li64ELi128ELi64ELi64EEENS0_18MainloopMultistageILi2/{f=1; next} /Function :/{f=0} f && /STL|LDL|HMMA|BAR|LDGSTS/{print}' \
    "$OUT/tuning.sass" | awk '{print $2}' | uniq -c > "$OUT/w4s2_order.txt"
fi
[ "${TIMING:-1}" = 0 ] || SHAPES="${SHAPES:-5120 5120 4096;4224 4096 4096}" bash scripts/gpu/seed_f16acc.sh "${ROUNDS:-2}" 2>&1 | grep -v "^$"
echo "total $(( $(date +%s) - start ))s"
