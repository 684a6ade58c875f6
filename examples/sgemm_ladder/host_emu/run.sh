#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Development aid, no GPU needed: checks the index math of rungs 1-8 by
# running them on the host. The kernel headers are copied with their launch
# functions (<<<...>>>) and Rung entries stripped, compiled by g++ against
# the emulation headers here, with AddressSanitizer catching any read or
# write outside the operands. Takes about a minute (one std::thread per
# CUDA thread). Not part of the CMake build.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$here/.." "$work" <<'PY'
import re, sys, pathlib
src, dst = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for f in src.glob('*.cuh'):
    s = f.read_text()
    s = re.sub(r'\ninline void k\d_\w+_launch\(.*?\n}\n', '\n', s, flags=re.S)
    s = re.sub(r'\ninline const Rung .*?};\n', '\n', s, flags=re.S)
    s = re.sub(r'\ninline dim3 tile_grid.*?\n}\n', '\n', s, flags=re.S)
    assert '<<<' not in s, f.name
    (dst / f.name).write_text(s)
PY
cp "$here/cuda_runtime.h" "$here/mma.h" "$here/emu.cpp" "$work/"
g++ -std=c++20 -O1 -g -fsanitize=address -I"$work" -o "$work/emu" "$work/emu.cpp" -pthread
"$work/emu"
