#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 44's first device call (run 368): builds, all at once, the runtime
# with the timeline hook (from ab_old/, the committed tree), the A/B pair of
# layouts drivers (ab_old/ against the working tree with the defer3 patch)
# and read_ceiling; then, one at a time, the timeline, the read-ceiling cases
# left from session 43 and the defer3 A/B. Logs under $OUT. (Run 368 built
# the layouts pair with CUDAFLAGS=-split-compile=0, which runtime_build.sh
# overrides: unsplit, 531 s; SPLIT_COMPILE=1 now.)
set -u
cd "$(dirname "$0")/../.."
O=${OUT:-/tmp/s44}; B=/tmp/s44b; mkdir -p "$O" "$B"
export PATH="$PATH:/usr/local/cuda/bin"
t0=$(date +%s)
# The timeline build and binary live outside ab_old/ (a later call's carry
# replaces ab_old/), so a second call on the warm machine can run it.
TL=/tmp/s44tl
TL_PROBLEMS="128x8192x8192 16x4096x14336 64x28672x4096 4096x4096x4096"
if [ ! -x $TL/ws_timeline ]; then
  (cd ab_old && EXTRA_CUDA_FLAGS=-DTESSERA_WS_TIMELINE BUILD=/tmp/build-timeline OUT=$TL SPLIT_COMPILE=1 \
    bash -c '. scripts/gpu/runtime_build.sh; build_driver "$ROOT/scripts/gpu/ws_timeline.cu" "$OUT/ws_timeline"') \
    > "$B/tl_build.log" 2>&1 &
fi
[ -n "${ONLY_TIMELINE:-}" ] && { wait; timeout 120 $TL/ws_timeline 100 $TL_PROBLEMS > "$O/timeline.txt" 2>&1; echo "rc=$?"; head -60 "$O/timeline.txt"; exit; }
for t in old new; do
  root=.; [ "$t" = old ] && root=ab_old
  (cd "$root" && SPLIT_COMPILE=1 OUT=$B/$t STEPS=layouts ROUNDS=1 LAYOUTS="64x64x64:tn:default" \
    bash scripts/gpu/session28.sh > "$B/${t}_build.log" 2>&1) &
done
nvcc -O3 -arch=sm_90a -std=c++20 -Iinclude -Iinclude/tessera -Ibench scripts/gpu/read_ceiling.cu \
  bench/queue_hold.cu src/tma/tensor_map.cpp -o "$B/rc" > "$B/rc_build.log" 2>&1
wait
echo "built in $(( $(date +%s) - t0 ))s"; tail -2 "$B/tl_build.log"
for t in old new; do [ -x "$B/$t/layouts" ] || { echo "$t: build failed"; tail -5 "$B/${t}_build.log" "$B/$t/build.log"; }; done
[ -x "$B/rc" ] || tail -5 "$B/rc_build.log"

echo "== read ceiling"
TMA_STREAM=128,8192,8192 timeout 120 "$B/rc" 100 136314880 > "$O/read_ceiling.txt" 2>&1; echo "rc=$?"
echo "== defer3 A/B ($(( $(date +%s) - t0 ))s)"
L="4096x4096x4096:tn:default 4096x6144x4096:tn:default 8192x8192x8192:tn:default 4096x4096x14336:tn:default"
for r in 1 2; do for t in old new; do
  echo "-- $t $r"
  # shellcheck disable=SC2086
  ROTATE=3 FLUSH_MB=0 timeout 150 "$B/$t/layouts" 100 $L 2>&1 | grep -v "^cuda"
done; done > "$O/ab.txt"
echo "== timeline ($(( $(date +%s) - t0 ))s)"
if [ $(( $(date +%s) - t0 )) -lt 500 ]; then
  timeout 60 $TL/ws_timeline 100 $TL_PROBLEMS > "$O/timeline.txt" 2>&1; echo "rc=$?"
else echo "skipped: ONLY_TIMELINE=1 on the warm machine runs it"; fi
echo "done in $(( $(date +%s) - t0 ))s"
echo "== A/B"; grep -v "^\s*$" "$O/ab.txt" | head -90
echo "== read ceiling"; head -40 "$O/read_ceiling.txt"
echo "== timeline"; head -50 "$O/timeline.txt" 2>/dev/null
