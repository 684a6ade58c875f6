#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# After scripts/gpu/hopper.sh on the same machine: Nsight Compute speed-of-light
# and warp-state sections of sm90_ws_gemm on 1024^3 (narrow 128x64 tiles
# without and with split-K, 128x128 with split-K), to see where split-K time goes.
B=/tmp/tessera-hopper-build; N=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for v in "n64 8" "n64 8 2" "n128 8 2"; do
  echo "=== ncu $v (1024^3)"
  SHAPES=small timeout 60 $N --clock-control none --kernel-name regex:ws_gemm_kernel --launch-skip 2 --launch-count 1 --section SpeedOfLight --section WarpStateStats $B/bench_sm90 $v 2>&1 | grep -E "Duration|Throughput|Stall|stall|Warp Cycles|Issued|Elapsed|ws_gemm_kernel" | head -30
done
