#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Installs missing build dependencies, configures Release with tests, tools,
# bench and CUDA (architectures 80;90a), builds everything and runs ctest.
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

  cmake --preset release "${generator[@]}" -B "$build_dir" \
    -DCMAKE_BUILD_TYPE=Release \
    -DTESSERA_ENABLE_TESTS=ON -DTESSERA_ENABLE_TOOLS=ON -DTESSERA_ENABLE_BENCH=ON \
    -DTESSERA_ENABLE_EXAMPLES=ON -DTESSERA_ENABLE_CUDA=ON \
    "-DCMAKE_CUDA_ARCHITECTURES=80;90a"
  if ! grep -q '^CMAKE_CUDA_COMPILER:' "$build_dir/CMakeCache.txt"; then
    echo "tessera: CMake did not enable CUDA; see the configure output above" >&2
    exit 1
  fi
  cmake --build "$build_dir" -j "$jobs"
  ctest --test-dir "$build_dir" --output-on-failure -j "$jobs"
}

main "$@"
exit
