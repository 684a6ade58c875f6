#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# The main job: builds the `tessera` tool and runs the GEMM benchmark
# (`tessera bench`, default suite, Tessera against cuBLAS) when a GPU is
# present. Without a GPU, or while the tool has no bench command, it says so
# and runs the layout demo (`tessera demo`) instead.
# Arguments are passed to `tessera bench`.
# Environment: TESSERA_BUILD_DIR (default build), TESSERA_JOBS (default nproc).
set -euo pipefail

# The body is one function, read whole before it runs, so editing this file
# during a run cannot change what the run does.
main() {
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  source scripts/install-deps.sh
  tessera_install_deps

  build_dir=${TESSERA_BUILD_DIR:-build}
  jobs=${TESSERA_JOBS:-$(nproc)}
  generator=()
  command -v ninja >/dev/null || generator=(-G "Unix Makefiles")  # the preset asks for Ninja

  cmake --preset release "${generator[@]}" -B "$build_dir" -DTESSERA_ENABLE_TOOLS=ON -DTESSERA_ENABLE_BENCH=ON
  cmake --build "$build_dir" --target tessera_tool -j "$jobs"
  tool="$build_dir/bin/tessera"

  has_gpu=0
  if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    has_gpu=1
  fi
  has_bench=0
  if "$tool" help bench >/dev/null 2>&1; then
    has_bench=1
  fi

  if ((has_gpu && has_bench)); then
    echo "== tessera bench $*"
    exec "$tool" bench "$@"
  fi
  if ((!has_gpu)); then
    echo "tessera: no NVIDIA GPU visible (nvidia-smi -L), so no benchmark; running the layout demo instead."
  else
    echo "tessera: this build of the tool has no 'bench' command yet; running the layout demo instead."
  fi
  if "$tool" help demo >/dev/null 2>&1; then
    echo "== tessera demo"
    exec "$tool" demo
  fi
  echo "tessera: the tool has no 'demo' command either; its commands are:" >&2
  "$tool" help >&2
  exit 1
}

main "$@"
exit
