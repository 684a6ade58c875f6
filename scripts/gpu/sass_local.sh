#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Issue 5's SASS target on a GPU machine (cuobjdump lives there): the SASS of
# the library's Hopper GEMM unit as a runtime build in $BUILD compiled it
# (e.g. session28.sh's build step), checked by sass_local.py: per kernel its
# STL / LDL and HGMMA counts, and whether any local-memory access lies inside
# a K loop. Writes $OUT/sm90_ws_gemm.sass.xz and $OUT/sass_local.txt; prints
# the kernels with local traffic and the summary. rc 1 when some kernel has
# local traffic inside a K loop. Session 46.
# Usage: BUILD=/tmp/bb bash scripts/gpu/sass_local.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-sass}; BUILD=${BUILD:-build-gpu}
mkdir -p "$OUT"
export PATH="$PATH:/usr/local/cuda/bin"
obj=$(find "$BUILD" -type f -name 'sm90_ws_gemm.cu.o' | head -1)
[ -n "$obj" ] || { echo "no sm90_ws_gemm.cu.o under $BUILD: build the runtime first"; exit 2; }
sass=$(mktemp)
cuobjdump -sass "$obj" > "$sass" || { echo "cuobjdump failed on $obj"; exit 2; }
python3 scripts/gpu/sass_local.py < "$sass" > "$OUT/sass_local.txt"
rc=$?
xz -c "$sass" > "$OUT/sm90_ws_gemm.sass.xz"
rm -f "$sass"
cat "$OUT/sass_local.txt"
exit $rc
