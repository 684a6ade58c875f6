#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 27's device check, one lease:
#   1. session26.sh: builds (sm_90a, examples on) the device tests in $T and
#      hopper_cute, runs the tests with memcheck and racecheck, hopper_cute's
#      checks, the sanitizers on $SAN_RUNGS and times $RUNGS beside cuBLAS;
#   2. when $EXP names a source tree, or $EXP_PATCH a patch to apply to a
#      copy of this one, builds its `tessera` tool alongside step 1's build
#      and runs `tessera bench` on $BENCH_SHAPES (bf16) once per value of the
#      environment variable $EXP_VAR in $EXP_VALUES, $EXP_ROUNDS rounds, each
#      row with cuBLAS beside it.
# SKIP26=1 skips step 1 (a second call on the same warm machine);
# EXP_BENCH=0 skips step 2's benchmark. Logs under $OUT.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-s27}
mkdir -p "$OUT"
export OUT PATH="$PATH:/usr/local/cuda/bin"
start=$(date +%s)
EXP=${EXP:-}
if [ -n "${EXP_PATCH:-}" ] && [ ! -d "${EXP:=/tmp/tessera-exp-src}" ]; then
  # The experiment: this tree with the patch applied, in a copy.
  mkdir -p "$EXP" && tar --exclude='./build*' -cf - . | tar -xf - -C "$EXP" &&
    (cd "$EXP" && patch -p1 -s < "$EXP_PATCH") || { echo "cannot apply $EXP_PATCH"; exit 1; }
fi
if [ -n "$EXP" ] && [ "${SKIP26:-0}" = 0 ]; then
  (cmake -S "$EXP" -B build-exp -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
     -DTESSERA_ENABLE_TESTS=OFF -DTESSERA_ENABLE_EXAMPLES=OFF > "$OUT/exp_configure.log" 2>&1 &&
   cmake --build build-exp -j 6 --target tessera_tool > "$OUT/exp_build.log" 2>&1
   echo "exp build rc=$? after $(( $(date +%s) - start ))s" > "$OUT/exp_build.rc") &
  exp_pid=$!
fi
if [ "${SKIP26:-0}" = 0 ]; then
  OUT="$OUT" bash scripts/gpu/session26.sh
  [ -n "$EXP" ] && wait "$exp_pid" && cat "$OUT/exp_build.rc"
fi
if [ -n "$EXP" ] && [ "${EXP_BENCH:-1}" != 0 ]; then
  tool=$(find build-exp -type f -name tessera -perm -u+x | head -1)
  if [ -z "$tool" ]; then
    grep -E "error" "$OUT/exp_build.log" | head -20
  else
    for r in $(seq 1 "${EXP_ROUNDS:-2}"); do
      for v in ${EXP_VALUES:-0 3}; do
        env "${EXP_VAR:?}=$v" timeout 200 "$tool" bench --shapes "${BENCH_SHAPES:-4096x4096x4096}" --types bf16 \
          > "$OUT/exp_r${r}_$v.txt" 2>&1
        echo "== round $r, $EXP_VAR=$v"
        grep -vE "^\s*$|^#" "$OUT/exp_r${r}_$v.txt" | tail -n "${EXP_LINES:-14}"
      done
    done
  fi
fi
echo "session27 total $(( $(date +%s) - start ))s"
