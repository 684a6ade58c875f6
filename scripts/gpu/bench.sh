#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# On a GPU machine: builds the `tessera` tool (CMake + Ninja when present,
# otherwise nvcc directly), runs the GEMM API device test when GoogleTest is
# available, `tessera info`, then `tessera bench --suite default` with CSV, JSON
# and SVG under $OUT, and prints the table last.
# Usage: scripts/gpu/bench.sh [extra `tessera bench` arguments, e.g. --quick or
#        --skip-kernels sm90_ws_gemm]; TEST_LIMIT / BENCH_LIMIT (seconds) bound
#        the device test (180) and the benchmark (420): a hung kernel costs
#        the limit, and the CSV/JSON/SVG keep every problem finished before it.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-bench}
mkdir -p "$OUT"
BUILD=${BUILD:-build-gpu}
export PATH="$PATH:/usr/local/cuda/bin"
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
JOBS=$(nproc 2>/dev/null || echo 8)

cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')
case "$cc" in
  90) ARCH=90a ;;
  8*) ARCH=80 ;;
  "") ARCH=90a ;;
  *) ARCH=80 ;;
esac
{
  echo "== device"
  nvidia-smi --query-gpu=name,compute_cap,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv 2>&1
  "$NVCC" --version | tail -1
  echo "building for $ARCH"
} | tee "$OUT/env.txt"

TOOL=""
TEST=""
if command -v cmake >/dev/null; then
  GEN=()
  command -v ninja >/dev/null && GEN=(-G Ninja)
  # Tests need GoogleTest; retry without them when it is missing.
  if cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$ARCH" \
       -DTESSERA_ENABLE_EXAMPLES=OFF "${GEN[@]}" > "$OUT/configure.log" 2>&1; then
    TARGETS=(--target tessera_tool device_test_gemm_api)
  else
    rm -rf "$BUILD"
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="$ARCH" \
      -DTESSERA_ENABLE_TESTS=OFF -DTESSERA_ENABLE_EXAMPLES=OFF "${GEN[@]}" >> "$OUT/configure.log" 2>&1
    TARGETS=(--target tessera_tool)
  fi
  if cmake --build "$BUILD" -j "$JOBS" "${TARGETS[@]}" > "$OUT/build.log" 2>&1; then
    TOOL="$BUILD/bin/tessera"
    TEST=$(find "$BUILD" -name device_test_gemm_api -type f -perm -u+x | head -1)
  else
    echo "cmake build failed; tail of $OUT/build.log:"; tail -30 "$OUT/build.log"
  fi
fi
if [ -z "$TOOL" ]; then
  echo "building with nvcc directly"
  OBJ="$BUILD/nvcc-obj"
  mkdir -p "$OBJ"
  GENCODE="-gencode=arch=compute_${ARCH},code=sm_${ARCH}"
  FLAGS=(-std=c++20 -O3 --expt-relaxed-constexpr -lineinfo -Iinclude -Isrc -Ibench -Itools/tessera $GENCODE)
  pids=()
  for f in src/*/*.cu src/*/*/*.cu src/*/*.cpp bench/*.cu bench/*.cpp tools/tessera/*.cu tools/tessera/*.cpp; do
    [ -f "$f" ] || continue
    o="$OBJ/$(echo "$f" | tr '/' '_').o"
    if [[ "$f" == *.cu ]]; then x=(-x cu); else x=(-x c++); fi
    ( "$NVCC" "${FLAGS[@]}" "${x[@]}" -c "$f" -o "$o" > "$o.log" 2>&1 || { echo "FAILED $f"; cat "$o.log"; } ) &
    pids+=($!)
    if (( ${#pids[@]} >= JOBS )); then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  done
  wait
  "$NVCC" $GENCODE "$OBJ"/*.o -o "$BUILD/tessera" -lcublas > "$OUT/link.log" 2>&1 && TOOL="$BUILD/tessera"
  [ -n "$TOOL" ] || { echo "link failed:"; tail -30 "$OUT/link.log"; exit 1; }
fi

if [ -n "$TEST" ]; then
  echo "== device_test_gemm_api"
  timeout --signal=KILL "${TEST_LIMIT:-180}" "$TEST" > "$OUT/test_gemm_api.log" 2>&1
  echo "rc=$? ($(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/test_gemm_api.log" | tr '\n' ' '))"
  grep -E "Failure|FAILED|error" "$OUT/test_gemm_api.log" | head -20
fi

echo "== tessera info"
"$TOOL" info 2>&1 | tee "$OUT/info.txt"

echo "== tessera bench --suite default $*"
start=$(date +%s)
timeout --signal=KILL "${BENCH_LIMIT:-420}" "$TOOL" bench --suite default --csv "$OUT/bench.csv" --json "$OUT/bench.json" --svg "$OUT/bench.svg" "$@" \
  > "$OUT/bench.txt" 2> "$OUT/bench.progress.log"
rc=$?
echo "bench rc=$rc in $(( $(date +%s) - start )) s (progress: $OUT/bench.progress.log)"
tail -5 "$OUT/bench.progress.log"
if [ -s "$OUT/bench.txt" ]; then
  cat "$OUT/bench.txt"
elif [ -s "$OUT/bench.csv" ]; then
  echo "no table (interrupted); finished problems from $OUT/bench.csv:"
  awk -F, 'NR > 1 { printf "%-6s %6s %6s %6s %-5s %-24s %9.2f TFLOP/s  x%.3f  %s\n", $3, $4, $5, $6, $8, $10 ($11 == 1 ? " *" : ""), $17, $18, ($12 == 1 ? "ok" : "FAIL") }' "$OUT/bench.csv"
fi
exit $rc
