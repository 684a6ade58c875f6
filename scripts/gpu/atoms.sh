#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Atom-layer device tests: builds tests/device/test_atom_*.cu and
# tests/device/test_tiled_*.cu with nvcc (sm_80 + sm_90a; *_sm90.cu for sm_90a
# only), runs each, runs each again under compute-sanitizer memcheck and
# racecheck, profiles the shared-memory bank conflicts of the tiled GEMM kernel
# (seed 000's swizzled layout beside an unswizzled one) with ncu, and prints a
# summary table. Logs under $OUT (default /tmp/tessera-atoms).
# Usage: scripts/gpu/atoms.sh
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/tessera-atoms}
BUILD=${BUILD:-/tmp/tessera-atoms-build}
. scripts/gpu/nvcc_tests.sh  # NVCC, SANITIZER, GENCODE_*, build_tests, run_tests, report_logs
NCU=$(command -v ncu || echo "$(dirname "$NVCC")/ncu")

build_tests --expt-relaxed-constexpr tests/device/test_atom_*.cu tests/device/test_tiled_*.cu
run_tests 24

# Bank conflicts of the tiled GEMM kernels (ld: ldmatrix reads, st: cp.async
# writes land as shared stores). Seed 000's Swizzle<3,3,3> layout must show
# zero; the unswizzled baseline shows what the swizzle removes.
bank_table=()
if [ -x "$NCU" ] && [ -x "$BUILD/test_tiled_gemm" ]; then
  metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
  for filter in TiledGemm.Seed000_F16Accumulate TiledGemm.UnswizzledSmem_F16Accumulate; do
    log="$OUT/ncu_${filter#TiledGemm.}.log"
    "$NCU" --clock-control none --metrics "$metrics" -k regex:tiled_gemm_kernel \
      "$BUILD/test_tiled_gemm" --gtest_filter="$filter" > "$log" 2>&1
    ld=$(grep 'op_ld.sum' "$log" | awk '{print $NF}' | tail -1)
    st=$(grep 'op_st.sum' "$log" | awk '{print $NF}' | tail -1)
    # ldmatrix has its own counter on newer ncu; best effort, a missing metric just shows '?'.
    "$NCU" --clock-control none --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum \
      -k regex:tiled_gemm_kernel "$BUILD/test_tiled_gemm" --gtest_filter="$filter" > "$log.ldsm" 2>&1
    ldsm=$(grep 'op_ldsm.sum' "$log.ldsm" | awk '{print $NF}' | tail -1)
    bank_table+=("$(printf '%-44s ld_conflicts=%-8s ldsm_conflicts=%-8s st_conflicts=%s' "$filter" "${ld:-?}" \
      "${ldsm:-?}" "${st:-?}")")
    if [ "$filter" = TiledGemm.Seed000_F16Accumulate ] && [ "${ld:-x}" != 0 ]; then overall=1; fi
  done
else
  bank_table+=("ncu or test_tiled_gemm missing: no bank-conflict profile")
fi

report_logs
echo "== atoms: shared-memory bank conflicts (ncu, tiled GEMM kernel)"
printf '%s\n' "${bank_table[@]}" | tee "$OUT/bank_conflicts.txt"
echo "== atoms summary"
printf '%s\n' "${summary[@]}" | tee "$OUT/summary.txt"
exit $overall
