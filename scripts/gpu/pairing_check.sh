#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 28 (run 254): `tessera bench` (bf16, $SUITE, default `default`,
# the sm80 and SIMT rows skipped) under the benchmark's pairing and under
# the old one, in which each Tessera run read the input set its cuBLAS
# partner had just read (scripts/gpu/bench_pairing_old.patch, reverted in a
# copy of this tree). Builds both tools in parallel, then runs new, old,
# new, old and prints each `tessera::gemm` ratio. Logs under $OUT.
set -u
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/cuda/bin"
start=$(date +%s)
rm -rf /tmp/old && mkdir -p /tmp/old && tar --exclude='./build*' -cf - . | tar -xf - -C /tmp/old
(cd /tmp/old && patch -p1 -R -s < scripts/gpu/bench_pairing_old.patch) || { echo "patch failed"; exit 1; }
for d in . /tmp/old; do
  (cmake -S "$d" -B "$d/build-p" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a \
     -DTESSERA_ENABLE_TESTS=OFF -DTESSERA_ENABLE_EXAMPLES=OFF > "$OUT/cfg_$(basename $d).log" 2>&1 &&
   cmake --build "$d/build-p" -j 8 --target tessera_tool > "$OUT/build_$(basename $d).log" 2>&1; echo "$d rc=$?") &
done
wait
echo "built after $(( $(date +%s) - start ))s"
new=$(find build-p -type f -name tessera -perm -u+x | head -1); old=$(find /tmp/old/build-p -type f -name tessera -perm -u+x | head -1)
for r in 1 2; do
  for v in new old; do
    exe=$new; [ $v = old ] && exe=$old
    timeout 75 "$exe" bench --suite "${SUITE:-default}" --types bf16 --skip-kernels sm80_tensorop,sm80_tiled,simt_generic > "$OUT/${v}_$r.txt" 2>/dev/null
    echo "== $v round $r ($(( $(date +%s) - start ))s)"
    grep -E "tessera::gemm" "$OUT/${v}_$r.txt" | grep -v "^\[" | awk '{printf "%s %s  ", $1, $7} END {print ""}'
  done
done
