#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# A/B on one GPU in one call: `layouts.sh` built from the committed tree
# (ab_old/) and from the working tree, timed in alternating rounds, so a
# kernel change is read against its own baseline on the same machine.
# Session 31, run 267.
#
# Before the call, here (ab_old/ is git-ignored; pass it in the run's carry):
#   rm -rf ab_old && mkdir ab_old && git archive HEAD | tar -x -C ab_old
# A third build, "alt", joins where ab_alt/ exists (git-ignored too; e.g.
# HEAD with a second patch applied, to time two candidate changes against
# the same baseline in one call; session 51):
#   rm -rf ab_alt && mkdir ab_alt && git archive HEAD | tar -x -C ab_alt
#   git apply --directory=ab_alt scripts/gpu/OTHER.patch
# Then on the device:
#   LAYOUTS="1000x1000x1000:tn:default ..." bash scripts/gpu/ab_layouts.sh
# Both runtimes build at once with nvcc -split-compile=0 (~120 s on 16
# cores); $ROUNDS (default 50) timed rounds per problem, $AB_ROUNDS (2)
# alternations, the L2 flush of layouts.sh ($FLUSH_MB, default 256).
# AB_STEP=build builds both drivers and keeps them (OUT outside the
# returned folder, e.g. /tmp/ab), AB_STEP=run times the ones a build step
# left there (a later call on the warm machine); unset, both.
set -u
cd "$(dirname "$0")/../.." || exit 2
[ -d ab_old/scripts/gpu ] || { echo "ab_old/ missing: see the header of $0"; exit 2; }
# SPLIT_COMPILE (runtime_build.sh), not CUDAFLAGS: runtime_build.sh sets
# CMAKE_CUDA_FLAGS, which overrides CUDAFLAGS (both runtimes built unsplit
# until session 44: 531 s in run 368).
export SPLIT_COMPILE=1 FLUSH_MB=${FLUSH_MB:-256}
W=${OUT:-/tmp/ab}
mkdir -p "$W"
start=$(date +%s)
step=${AB_STEP:-both}
trees="old new"
[ -d ab_alt/scripts/gpu ] && trees="old new alt"
if [ "$step" != run ]; then
  for t in $trees; do
    root=.; [ "$t" = old ] && root=ab_old; [ "$t" = alt ] && root=ab_alt
    (cd "$root" && OUT=$W/$t STEPS=layouts ROUNDS=1 LAYOUTS="64x64x64:tn:default" \
      bash scripts/gpu/session28.sh > "$W/${t}_build.log" 2>&1) &
  done
  wait
  echo "built ($trees) in $(( $(date +%s) - start ))s"
fi
for t in $trees; do [ -x "$W/$t/layouts" ] || { echo "$t: build failed"; tail -5 "$W/${t}_build.log"; exit 1; }; done
[ "$step" = build ] && exit 0
# Each round starts one build later (old new alt, new alt old, alt old
# new, ...), so that no build always runs first. Until session 52 old
# always did, the first round right after the build; whether that biased
# the ~1% beta = 0 losses of runs 406 and 410-412 on 16x4096x14336 is
# untested. An A/A check: an ab_alt/ that is HEAD with no patch applied.
read -r -a order <<< "$trees"
for r in $(seq 1 "${AB_ROUNDS:-2}"); do
  for i in $(seq 0 $(( ${#order[@]} - 1 ))); do
    t=${order[$(( (r - 1 + i) % ${#order[@]} ))]}
    echo "== $t, round $r"
    # shellcheck disable=SC2086
    "$W/$t/layouts" "${ROUNDS:-50}" $LAYOUTS 2>&1 | grep -v "^cuda"
  done
done
# Too large to come back under the run's $OUT: removed, unless KEEP=1 (a
# caller whose OUT lies outside the returned folder, timing again later on
# the warm machine; session 46 had to rebuild both for a second run).
[ "${KEEP:-0}" = 1 ] || rm -f "$W"/old/layouts "$W"/new/layouts "$W"/alt/layouts
