#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Session 32's device check: builds and runs the Hopper GEMM tests named by
# $FILTER (default all; memcheck and racecheck on $SAN_FILTER, default
# NarrowSmall), then times $VARIANTS (layouts.sh labels, default
# "default,coop_tma,n192"; the stream-K labels coop_tma_sk and coop_sk need
# scripts/gpu/streamk_experiment.patch applied first) beside cuBLAS
# (layouts.sh, gated, L2 flushed unless FLUSH_MB=0, $ROUNDS rounds) on
# $SHAPES (MxNxK, tn; MxNxK:LAYOUTS; or MxNxK:LAYOUTS:VARIANTS, that shape's
# own list) and prints one table of ratios to cuBLAS, a row per shape.
# scripts/gpu/session33_sweep_shapes.txt holds run 284's list (SHAPES="$(cat
# ...)"): 100 mid-size shapes, the former default's label beside `default`
# where session 33's rule changed the choice. STEPS="test layouts" by default.
set -u
cd "$(dirname "$0")/../.."
OUT0=${OUT:-/tmp/tessera-variants}
STEPS=${STEPS:-test layouts}
step() { case " $STEPS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
if step test; then
  export OUT=$OUT0/t; mkdir -p "$OUT"
  T=device_test_hopper_gemm_sm90 HC=0 HC_TARGET= SPLIT_COMPILE=1 STEPS="build test" \
    FILTER="${FILTER:-*}" SAN_FILTER="${SAN_FILTER:-*NarrowSmall*}" \
    bash scripts/gpu/session28.sh 2>&1 | tail -15
fi
if step layouts; then
  export OUT=$OUT0/a; mkdir -p "$OUT"
  V=${VARIANTS:-default,coop_tma,n192}
  L=""
  # A shape may name its layouts (1536x2048x4096:tn,nn); tn otherwise; and
  # its own variants after them (2560x2560x4096:tn:default,coop_tma_bw).
  for s in ${SHAPES:-1536x1536x4096 2560x2560x4096}; do
    case $s in *:*:*) L="$L $s" ;; *:*) L="$L $s:$V" ;; *) L="$L $s:tn:$V" ;; esac
  done
  FLUSH_MB=${FLUSH_MB:-256} STEPS=layouts ROUNDS=${ROUNDS:-15} LAYOUTS="$L" LAYOUT_LINES=400 \
    timeout "${LAYOUT_TIMEOUT:-300}" bash scripts/gpu/session28.sh > "$OUT/var.txt" 2>&1
  echo "layouts rc=$?"
  python3 - "$OUT/var.txt" "$V" "${SHAPES:-}" <<'PY'
import re, sys
p = None; t = {}; order = []
for l in open(sys.argv[1]):
    m = re.match(r'^(\d+x\d+x\d+) (\w\w)( tf32| ld padded to \d+)*$', l.strip())
    if m: p = l.strip(); order.append(p); t[p] = {}
    m = re.match(r'\s+(\S+)\s+([\d.]+)\s+([\d.]+)x', l)
    if m and p: t[p][m.group(1)] = float(m.group(3))
vs = sys.argv[2].split(",")
if all(s.count(":") < 2 for s in sys.argv[3].split()):  # one variant list for every shape
    print(f"{'shape':>19} " + " ".join(f"{v[:11]:>11}" for v in vs))
    for p in order: print(f"{p:>19} " + " ".join(f"{t[p].get(v, 0):11.3f}" for v in vs))
else:  # shapes with their own variants: label=ratio
    for p in order: print(f"{p:>19} " + " ".join(f"{v}={r:.3f}" for v, r in t[p].items()))
PY
  grep -iE 'error|fail|differ|mismatch|refused|wrong' "$OUT/var.txt" | head
fi
