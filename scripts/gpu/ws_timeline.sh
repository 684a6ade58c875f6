#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Where a Hopper GEMM launch spends its time, CTA by CTA (ws_timeline.cu):
# builds the runtime with the TESSERA_WS_TIMELINE hook in its own build
# folder ($BUILD, default build-timeline, so the ordinary build-gpu keeps the
# library's code), then the driver, and runs it.
# Usage: scripts/gpu/ws_timeline.sh [ROUNDS [MxNxK ...]]
#   default: 100 rounds of 128x8192x8192 16x4096x14336 64x28672x4096 4096x4096x4096
set -u
OUT=${OUT:-/tmp/tessera-timeline}
BUILD=${BUILD:-build-timeline}
EXTRA_CUDA_FLAGS="${EXTRA_CUDA_FLAGS:-} -DTESSERA_WS_TIMELINE"
export EXTRA_CUDA_FLAGS
. "$(dirname "$0")/runtime_build.sh"
build_driver "$ROOT/scripts/gpu/ws_timeline.cu" "$OUT/ws_timeline"
rounds=${1:-100}
shift || true
# shellcheck disable=SC2068
"$OUT/ws_timeline" "$rounds" ${@:-128x8192x8192 16x4096x14336 64x28672x4096 4096x4096x4096}
