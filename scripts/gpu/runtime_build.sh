# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Sourced (not run) by the timing drivers that link the runtime library
# (seed_f16acc.sh, tiled.sh, host_overhead.sh, layouts.sh, waves.sh). Expects OUT (the log folder)
# to be set; goes to the repository root, sets ROOT and BUILD (default
# build-gpu), CMake-builds tessera_runtime for sm_90a there (logs
# $OUT/configure.log, $OUT/build.log; SPLIT_COMPILE non-empty splits each
# translation unit's compilation over the cores; EXTRA_CUDA_FLAGS, e.g.
# -DTESSERA_WS_TIMELINE, go to the runtime's and the driver's nvcc) and exits
# the caller on failure.
# Defines build_driver SRC EXE: nvcc SRC against the runtime and cuBLAS, then
# the seconds since this file was sourced and the GPU's name, clocks and power
# (the lines every driver prints before it runs).
RUNTIME_BUILD_START=$(date +%s)
mkdir -p "$OUT"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$(pwd)
BUILD=${BUILD:-build-gpu}
export PATH="$PATH:/usr/local/cuda/bin"
GEN=(); command -v ninja >/dev/null && GEN=(-G Ninja)
# SPLIT_COMPILE set to any non-empty value: nvcc -split-compile=0, as in
# session28.sh (whose build of the same $BUILD then reuses these objects).
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90a -DTESSERA_ENABLE_EXAMPLES=OFF \
  -DCMAKE_CUDA_FLAGS="${SPLIT_COMPILE:+-split-compile=0} ${EXTRA_CUDA_FLAGS:-}" \
  "${GEN[@]}" > "$OUT/configure.log" 2>&1 || { echo "configure failed"; exit 1; }
cmake --build "$BUILD" -j "$(nproc)" --target tessera_runtime > "$OUT/build.log" 2>&1 \
  || { echo "build failed"; grep error "$OUT/build.log" | head; exit 1; }

build_driver() {
  # shellcheck disable=SC2086
  nvcc -std=c++20 -O3 --expt-relaxed-constexpr ${EXTRA_CUDA_FLAGS:-} -I"$ROOT/include" -I"$ROOT/src" -I"$ROOT/scripts/gpu" -I"$ROOT/bench" -arch=sm_90a "$1" \
    "$BUILD/src/libtessera_runtime.a" -lcublas -o "$2" || { echo "driver build failed"; exit 1; }
  echo "built in $(( $(date +%s) - RUNTIME_BUILD_START ))s"
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit --format=csv,noheader
}
