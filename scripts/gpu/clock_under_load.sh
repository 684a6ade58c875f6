#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# The SM clock and power while cuBLAS (torch.matmul) and then Tessera's
# sm90_ws_gemm run an N^3 bf16 GEMM back to back for SECONDS each: does the
# GPU hold its clock, and at what rate does each kernel run at the clock it
# holds? Builds the runtime ($BUILD, default build-gpu) and
# clock_under_load.cu; the torch half is clock_under_load.py. Session 44.
# Usage: scripts/gpu/clock_under_load.sh [SECONDS [N]]
set -u
OUT=${OUT:-/tmp/tessera-clock}
. "$(dirname "$0")/runtime_build.sh"
build_driver "$ROOT/scripts/gpu/clock_under_load.cu" "$OUT/clock_under_load"
s=${1:-8}; n=${2:-8192}
python3 "$ROOT/scripts/gpu/clock_under_load.py" "$s" "$n" 2>&1 | tail -3
nvidia-smi --query-gpu=clocks.sm,power.draw,clocks_event_reasons.active --format=csv,noheader,nounits -lms 100 \
  > "$OUT/smi.csv" &
smi=$!
"$OUT/clock_under_load" "$s" "$n"
kill $smi
sort -t, -k1,1n "$OUT/smi.csv" | awk -F', ' '{c[NR]=$1; p[NR]=$2; r[$3]++} END {
  printf "  SM clock MHz quartiles %d / %d / %d over %d samples; reasons:", c[int(NR/4)+1], c[int(NR/2)+1], c[int(3*NR/4)+1], NR;
  for (k in r) printf " %s x%d", k, r[k]; printf "\n" }'
sort -t, -k2,2n "$OUT/smi.csv" | awk -F', ' '{p[NR]=$2} END {printf "  power W median %s\n", p[int(NR/2)+1]}'
