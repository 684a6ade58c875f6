#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Atom-layer device tests: builds tests/device/test_atom_*.cu and
# tests/device/test_tiled_*.cu with nvcc (sm_80 + sm_90a; *_sm90.cu for sm_90a
# only), runs each, runs each again under compute-sanitizer memcheck and
# racecheck, profiles the shared-memory bank conflicts of the tiled GEMM kernel
# (seed 000's swizzled layout beside an unswizzled one) with ncu, and prints a
# summary table. Logs under $OUT (default /tmp/tessera-atoms).
# Usage: scripts/gpu/atoms.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-atoms}
BUILD=${BUILD:-/tmp/tessera-atoms-build}
mkdir -p "$OUT" "$BUILD"

NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUDA_BIN=$(dirname "$NVCC")
SANITIZER=$(command -v compute-sanitizer || echo "$CUDA_BIN/compute-sanitizer")
NCU=$(command -v ncu || echo "$CUDA_BIN/ncu")
GENCODE_ALL="-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a"
GENCODE_90A="-gencode=arch=compute_90a,code=sm_90a"

{
  echo "nvcc: $NVCC"; "$NVCC" --version | tail -1
  nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 ||
    echo "nvidia-smi failed"
} | tee "$OUT/env.txt"

# GoogleTest: system static libraries, else a private build of /usr/src/googletest.
GTEST_FLAGS=""
if ls /usr/lib/x86_64-linux-gnu/libgtest.a /usr/lib/x86_64-linux-gnu/libgtest_main.a >/dev/null 2>&1; then
  GTEST_FLAGS="-lgtest -lgtest_main"
else
  GT=/tmp/tessera-gtest
  if [ ! -f "$GT/lib/libgtest.a" ] && [ -d /usr/src/googletest ]; then
    echo "building GoogleTest from /usr/src/googletest"
    cmake -S /usr/src/googletest -B "$GT-build" -DCMAKE_BUILD_TYPE=Release -DBUILD_GMOCK=OFF \
      -DCMAKE_ARCHIVE_OUTPUT_DIRECTORY="$GT/lib" > "$OUT/gtest-build.log" 2>&1 &&
      cmake --build "$GT-build" -j 8 >> "$OUT/gtest-build.log" 2>&1
  fi
  GTEST_FLAGS="-I/usr/src/googletest/googletest/include -L$GT/lib -lgtest -lgtest_main"
fi

# Build in parallel.
declare -A BUILD_RC
pids=()
names=()
for src in tests/device/test_atom_*.cu tests/device/test_tiled_*.cu; do
  [ -f "$src" ] || continue
  name=$(basename "$src" .cu)
  if [[ "$name" == *_sm90 ]]; then gencode=$GENCODE_90A; else gencode=$GENCODE_ALL; fi
  # shellcheck disable=SC2086
  ( "$NVCC" -std=c++20 --expt-relaxed-constexpr -O2 -lineinfo -Iinclude $gencode "$src" -o "$BUILD/$name" \
      $GTEST_FLAGS -Xcompiler -pthread > "$OUT/$name.build.log" 2>&1 ) &
  pids+=($!)
  names+=("$name")
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}"
  BUILD_RC[${names[$i]}]=$?
done

gtest_counts() {
  local log=$1 p s f
  p=$(grep -oE '^\[  PASSED  \] [0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  s=$(grep -oE '^\[  SKIPPED \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -1)
  f=$(grep -oE '^\[  FAILED  \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -1)
  echo "${p:-0} passed, ${s:-0} skipped, ${f:-0} failed"
}

summary=()
overall=0
for name in "${names[@]}"; do
  if [ "${BUILD_RC[$name]}" -ne 0 ]; then
    summary+=("$(printf '%-24s BUILD FAILED (see %s.build.log)' "$name" "$name")")
    grep -m 20 -E 'error' "$OUT/$name.build.log"
    overall=1
    continue
  fi
  bin="$BUILD/$name"
  "$bin" > "$OUT/$name.run.log" 2>&1
  run_rc=$?
  line=$(printf '%-24s run=%s (%s)' "$name" "$([ $run_rc -eq 0 ] && echo PASS || echo FAIL)" \
    "$(gtest_counts "$OUT/$name.run.log")")
  [ $run_rc -ne 0 ] && overall=1
  for tool in memcheck racecheck; do
    if [ -x "$SANITIZER" ]; then
      "$SANITIZER" --tool "$tool" --error-exitcode 99 "$bin" > "$OUT/$name.$tool.log" 2>&1
      rc=$?
      errs=$(grep -oE 'ERROR SUMMARY: [0-9]+ error' "$OUT/$name.$tool.log" | grep -oE '[0-9]+' | tail -1)
      if [ $rc -eq 0 ]; then line+=" $tool=PASS"; else line+=" $tool=FAIL(rc=$rc,errors=${errs:-?})"; overall=1; fi
    else
      line+=" $tool=n/a"
    fi
  done
  summary+=("$line")
done

# Bank conflicts of the tiled GEMM kernels (ld: ldmatrix reads, st: cp.async
# writes land as shared stores). Seed 000's Swizzle<3,3,3> layout must show
# zero; the unswizzled baseline shows what the swizzle removes.
bank_table=()
if [ -x "$NCU" ] && [ -x "$BUILD/test_tiled_gemm" ]; then
  metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  for filter in TiledGemm.Seed000_F16Accumulate TiledGemm.UnswizzledSmem_F16Accumulate; do
    log="$OUT/ncu_${filter#TiledGemm.}.log"
    "$NCU" --clock-control none --metrics "$metrics" -k regex:tiled_gemm_kernel \
      "$BUILD/test_tiled_gemm" --gtest_filter="$filter" > "$log" 2>&1
    ld=$(grep 'op_ld.sum' "$log" | awk '{print $NF}' | tail -1)
    st=$(grep 'op_st.sum' "$log" | awk '{print $NF}' | tail -1)
    # ldmatrix has its own counter on newer ncu; best effort, a missing metric just shows '?'.
    "$NCU" --clock-control none --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum \
      -k regex:tiled_gemm_kernel "$BUILD/test_tiled_gemm" --gtest_filter="$filter" > "$log.ldsm" 2>&1
    ldsm=$(grep 'op_ldsm.sum' "$log.ldsm" | awk '{print $NF}' | tail -1)
    bank_table+=("$(printf '%-44s ld_conflicts=%-8s ldsm_conflicts=%-8s st_conflicts=%s' "$filter" "${ld:-?}" \
      "${ldsm:-?}" "${st:-?}")")
    if [ "$filter" = TiledGemm.Seed000_F16Accumulate ] && [ "${ld:-x}" != 0 ]; then overall=1; fi
  done
else
  bank_table+=("ncu or test_tiled_gemm missing: no bank-conflict profile")
fi

for name in "${names[@]}"; do
  log="$OUT/$name.run.log"
  [ -f "$log" ] || continue
  if grep -q '^\[  FAILED  \]' "$log"; then
    echo "== $name: failures"
    grep -B1 -A8 'Failure$' "$log" | head -n 60
  fi
  if grep -q '^\[  SKIPPED \]' "$log"; then
    echo "== $name: skip reasons"
    grep -E 'needs sm_|no GPU' "$log" | sort | uniq -c
  fi
done
echo "== atoms: shared-memory bank conflicts (ncu, tiled GEMM kernel)"
printf '%s\n' "${bank_table[@]}" | tee "$OUT/bank_conflicts.txt"
echo "== atoms summary"
printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
exit $overall
