# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Sourced (not run) by arch.sh and atoms.sh: device tests built straight with
# nvcc rather than CMake, each run once and again under compute-sanitizer
# memcheck and racecheck. Expects OUT (logs) and BUILD (binaries) set and the
# repository root as the working directory. Sets NVCC, SANITIZER,
# GENCODE_ALL, GENCODE_90A and GTEST_FLAGS, writes $OUT/env.txt, and defines:
#   build_tests FLAGS SRC...  nvcc every SRC in parallel (sm_80 + sm_90a;
#                             *_sm90.cu for sm_90a only) with FLAGS added;
#                             fills names[] and BUILD_RC[name]
#   run_tests WIDTH           runs each built binary, then memcheck and
#                             racecheck; one line per binary in summary[],
#                             overall=1 on any failure
#   report_logs               failures and skip reasons from the run logs
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
SANITIZER=$(command -v compute-sanitizer || echo "$(dirname "$NVCC")/compute-sanitizer")
GENCODE_ALL="-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a"
GENCODE_90A="-gencode=arch=compute_90a,code=sm_90a"
mkdir -p "$OUT" "$BUILD"

{
  echo "nvcc: $NVCC"; "$NVCC" --version | tail -1
  nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 ||
    echo "nvidia-smi failed"
} | tee "$OUT/env.txt"

# GoogleTest: the system static libraries, else a private build of /usr/src/googletest.
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

declare -A BUILD_RC
names=()
summary=()
overall=0

build_tests() {
  local flags=$1 src name gencode
  shift
  local pids=()
  for src in "$@"; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .cu)
    if [[ "$name" == *_sm90 ]]; then gencode=$GENCODE_90A; else gencode=$GENCODE_ALL; fi
    # shellcheck disable=SC2086
    ( "$NVCC" -std=c++20 -O2 -lineinfo -Iinclude $flags $gencode "$src" -o "$BUILD/$name" $GTEST_FLAGS \
        -Xcompiler -pthread > "$OUT/$name.build.log" 2>&1 ) &
    pids+=($!)
    names+=("$name")
  done
  local i
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}"
    BUILD_RC[${names[$i]}]=$?
  done
}

# "N passed, M skipped, K failed" from a GoogleTest log.
gtest_counts() {
  local log=$1 p s f
  p=$(grep -oE '^\[  PASSED  \] [0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  s=$(grep -oE '^\[  SKIPPED \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -1)
  f=$(grep -oE '^\[  FAILED  \] [0-9]+ test' "$log" | grep -oE '[0-9]+' | tail -1)
  echo "${p:-0} passed, ${s:-0} skipped, ${f:-0} failed"
}

run_tests() {
  local width=$1 name bin line run_rc tool rc errs
  for name in "${names[@]}"; do
    if [ "${BUILD_RC[$name]}" -ne 0 ]; then
      summary+=("$(printf "%-${width}s BUILD FAILED (see %s.build.log)" "$name" "$name")")
      tail -n 20 "$OUT/$name.build.log"
      overall=1
      continue
    fi
    bin="$BUILD/$name"
    "$bin" > "$OUT/$name.run.log" 2>&1
    run_rc=$?
    line=$(printf "%-${width}s run=%s (%s)" "$name" "$([ $run_rc -eq 0 ] && echo PASS || echo FAIL)" \
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
}

report_logs() {
  local name log
  for name in "${names[@]}"; do
    log="$OUT/$name.run.log"
    [ -f "$log" ] || continue
    if grep -q '^\[  FAILED  \]' "$log"; then
      echo "== $name: failures"
      grep -B1 -A8 'Failure$' "$log" | head -n 60
    fi
    if grep -q '^\[  SKIPPED \]' "$log"; then
      echo "== $name: skip reasons"
      grep -E 'needs sm_|no GPU|no CUDA device|no kernel image' "$log" | sort | uniq -c
    fi
  done
}
