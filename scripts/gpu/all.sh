#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# One device-machine call: runs the named per-area GPU scripts in order, each
# under its own time limit, logs each under $OUT, and prints a summary last.
# Usage: scripts/gpu/all.sh [area:seconds ...]   e.g. sgemm_ladder:420 arch:240
set -u
OUT=${OUT:-/tmp/tessera-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/../.."
{
  echo "== device"; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  nvcc --version | tail -1
  ls /usr/lib/x86_64-linux-gnu/libgtest* /usr/local/lib/libgtest* 2>/dev/null | head -3
} 2>&1 | tee "$OUT/env.txt"
summary=""
for spec in "$@"; do
  area=${spec%%:*}; limit=${spec##*:}
  script="scripts/gpu/$area.sh"
  if [ ! -f "$script" ]; then summary+=$'\n'"$area: no script"; continue; fi
  echo "== $area (limit ${limit}s)"
  start=$(date +%s)
  mkdir -p "$OUT/$area"
  OUT="$OUT/$area" timeout --signal=KILL "$limit" bash "$script" > "$OUT/$area/console.log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  tail -n 40 "$OUT/$area/console.log"
  summary+=$'\n'"$area: rc=$rc in ${took}s"
done
echo "== summary$summary"
# The lease returns at most 8 files: pack everything into one archive.
(cd "$OUT" && tar -czf ../tessera-results.tgz . && rm -rf ./* && mv ../tessera-results.tgz .)
