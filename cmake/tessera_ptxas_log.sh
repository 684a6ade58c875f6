#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# tessera_ptxas_log.sh <report-dir> <compiler> <args...>
#
# The CUDA compiler launcher of tessera_runtime (src/CMakeLists.txt). A
# compile whose command asks ptxas for its report (--ptxas-options=-v) has
# that report saved as <report-dir>/<source file name>.txt, where the
# ptxas.* tests read it (tests/ptxas/library/), and kept out of the build
# log: only the compiler's other lines (warnings, errors) are printed. Every
# other compile runs unchanged.
#
# Why: the tests check the spills and wgmma serialisation of the objects the
# library ships. Recompiling the library's sm90 GEMM translation unit at
# test time just for `ptxas -v` cost ~3 minutes of CI's 2 cores.

dir=$1
shift

case " $* " in
  *" --ptxas-options=-v "*) ;;
  *) exec "$@" ;;
esac

source=""
previous=""
for arg in "$@"; do
  if [ "$previous" = "-c" ]; then source=$arg; fi
  previous=$arg
done
if [ -z "$source" ]; then
  echo "tessera_ptxas_log.sh: no '-c <source>' in the compile command: $*" >&2
  exit 2
fi

mkdir -p "$dir" || exit 2
report="$dir/$(basename "$source").txt"
partial="$report.partial.$$"
"$@" >"$partial" 2>&1
status=$?
if [ "$status" -eq 0 ]; then
  # Everything but ptxas's info lines and their indented property lines.
  grep -v -e '^ptxas info *:' -e '^    [0-9][0-9]* bytes stack frame' "$partial" >&2
  mv -f "$partial" "$report"
else
  cat "$partial" >&2
  rm -f "$partial" "$report"
fi
exit "$status"
