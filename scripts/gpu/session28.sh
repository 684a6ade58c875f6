#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 28's device check, in steps ($STEPS, default "build test"; a later
# call on the same warm machine runs "layouts bench ncu"):
#   build    builds (sm_90a, examples on) the device tests in $T, hopper_cute
#            and the tessera tool in $BUILD (SPLIT_COMPILE=1: in parallel
#            inside each translation unit, for test-only calls);
#   test     runs each test in $T (gtest filter $FILTER), then memcheck and
#            racecheck on $SAN_FILTER; hopper_cute's checks (HC=0: none, and
#            HC_TARGET= builds no hopper_cute);
#   layouts  scripts/gpu/layouts.sh on $LAYOUTS (MxNxK:LAYOUTS:VARIANTS ...),
#            $ROUNDS rounds, without the L2-flush memset unless FLUSH_MB is
#            set (session 29: FLUSH_MB=256 for the small cubes);
#   bench    `tessera bench --suite $BENCH_SUITE` (default skinny) for
#            $BENCH_TYPES (default bf16), the Ampere and generic kernels
#            skipped, $BENCH_ROUNDS times;
#   ncu      ncu (clocks not locked, caches flushed by ncu) of the first
#            launches of cuBLAS, the default and the variants of $NCU_SPEC, in
#            the layouts driver's check order: $NCU_METRICS (default time,
#            DRAM bytes and throughput, L2 traffic and throughput, grid).
# Logs under $OUT; prints a short summary.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-s28}
mkdir -p "$OUT"
export OUT PATH="$PATH:/usr/local/cuda/bin"
BUILD=${BUILD:-build-gpu}
T=${T:-device_test_hopper_gemm_sm90 device_test_tma_modes_sm90}
STEPS=${STEPS:-build test}
step() { case " $STEPS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
start=$(date +%s)
if step build; then
  # SPLIT_COMPILE=1: nvcc -split-compile=0 (cicc and ptxas on every core):
  # the device build in 112 s instead of 230-310 (run 264), for test-only
  # calls. Unset, the flag is cleared, so benchmark builds keep the code CI
  # builds (whether splitting changes the SASS was not checked).
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
    -DCMAKE_CUDA_FLAGS="${SPLIT_COMPILE:+-split-compile=0}" \
    -DTESSERA_ENABLE_EXAMPLES=ON > "$OUT/configure.log" 2>&1 || { tail -20 "$OUT/configure.log"; exit 1; }
  # shellcheck disable=SC2086
  cmake --build "$BUILD" -j "$(nproc)" --target $T ${HC_TARGET-hopper_cute} tessera_tool -- -k 0 > "$OUT/build.log" 2>&1 ||
    { echo "build failed:"; grep -E "error" "$OUT/build.log" | head -30; }
  echo "build took $(( $(date +%s) - start ))s"
fi
if step test; then
  for t in $T; do
    timeout 300 "./$BUILD/tests/$t" --gtest_filter="${FILTER:-*}" > "$OUT/$t.log" 2>&1
    printf '%-36s rc=%d %s\n' "$t" $? "$(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$t.log" | tr '\n' ' ')"
    grep -E "Failure|FAILED  \]|error" "$OUT/$t.log" | head -6
    for tool in memcheck racecheck; do
      TESSERA_TEST_IN_PROCESS=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 99 "./$BUILD/tests/$t" \
        --gtest_filter="${SAN_FILTER:-*}" > "$OUT/$t.$tool.log" 2>&1
      printf '  %-10s rc=%d %s\n' $tool $? "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/$t.$tool.log" | tail -1 | sed 's/=========//')"
    done
  done
  exe=$(find "$BUILD" -type f -name hopper_cute -perm -u+x | head -1)
  if [ -n "$exe" ] && [ "${HC:-1}" != 0 ]; then
    timeout 150 "$exe" --sizes 256x512x1024 --reps 2 > "$OUT/hc_check.txt" 2>&1
    echo "hopper_cute checks rc=$?: $(grep -c ' ok$' "$OUT/hc_check.txt") ok, $(grep -cE 'FAILED|differs' "$OUT/hc_check.txt") failed"
    grep -E "FAILED|differs" "$OUT/hc_check.txt" | head -6
  fi
fi
if step layouts; then
  # shellcheck disable=SC2086
  FLUSH_MB=${FLUSH_MB:-0} BUILD="$BUILD" bash scripts/gpu/layouts.sh "${ROUNDS:-100}" $LAYOUTS > "$OUT/layouts.log" 2>&1
  grep -vE "^\s*$" "$OUT/layouts.log" | grep -vE "^(-- |\[)" | tail -n "${LAYOUT_LINES:-40}"
fi
if step bench; then
  tool=$(find "$BUILD" -type f -name tessera -perm -u+x | head -1)
  for r in $(seq 1 "${BENCH_ROUNDS:-1}"); do
    suite=${BENCH_SUITE:-skinny} types=${BENCH_TYPES:-bf16}
    # The types in the name: a later call with other types keeps this file (run 374 lost one).
    log="$OUT/bench_${suite}_${types//,/_}_$r.txt"
    timeout 300 "$tool" bench --suite "$suite" --types "$types" --skip-kernels sm80_tensorop,sm80_tiled,simt_generic \
      > "$log" 2>&1
    echo "== bench $suite ($types), round $r"
    grep -vE "^\s*$|^#" "$log" | tail -n "${BENCH_LINES:-12}"
  done
fi
if step ncu; then
  metrics=${NCU_METRICS:-gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__cluster_dim_x}
  for spec in ${NCU_SPEC:-64x28672x4096:tn:default,n64_tr_c2}; do
    n=$(( $(echo "${spec##*:}" | tr ',' '\n' | wc -l) + 1 ))
    timeout 300 ncu --clock-control none --cache-control all -k regex:'gemm|nvjet' -c "$n" --csv --metrics "$metrics" \
      "$OUT/layouts" 1 "$spec" > "$OUT/ncu_${spec%%:*}.csv" 2> "$OUT/ncu_${spec%%:*}.err"
    echo "== ncu $spec${LD_PAD:+ (ld padded to $LD_PAD)} (launch order: cuBLAS, then the variants as listed)"
    python3 - "$OUT/ncu_${spec%%:*}.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows: print("no ncu rows"); sys.exit()
h = rows[0]; ki, ni, vi, ii, ui = (h.index(x) for x in ("Kernel Name", "Metric Name", "Metric Value", "ID", "Metric Unit"))
per = {}
for r in rows[1:]:
    per.setdefault(r[ii], {"k": r[ki][:40], "m": []})["m"].append(f"{r[ni].split('__')[-1]}={r[vi]}{r[ui] if r[ui] not in ('', 'none') else ''}")
for i, d in per.items():
    print(f"{i:>3} {d['k']:<40} " + " ".join(d["m"]))
PY
    tail -3 "$OUT/ncu_${spec%%:*}.err" | grep -iE "error|warn" | head -3
  done
fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv,noheader
echo "session28 total $(( $(date +%s) - start ))s"
