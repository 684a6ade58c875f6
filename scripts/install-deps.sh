#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Installs what the Tessera build needs on Debian/Ubuntu, only where missing
# (checked with dpkg -s first), and puts nvcc on PATH.
#   bash scripts/install-deps.sh          install and check
#   source scripts/install-deps.sh        the same, and keep the PATH change
# The CUDA toolkit itself (nvcc 13, cuBLAS) is not installed here: it must be
# present, usually in /usr/local/cuda.

tessera_install_deps() {
  # ninja-build is optional: without it the scripts fall back to Makefiles.
  local required=(cmake g++ libgtest-dev) optional=(ninja-build)
  local missing=() p
  for p in "${required[@]}" "${optional[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
  done
  if ((${#missing[@]})); then
    local sudo=()
    if [[ $(id -u) != 0 ]] && command -v sudo >/dev/null; then
      sudo=(sudo)
    fi
    echo "tessera: installing ${missing[*]}"
    if ! { "${sudo[@]}" apt-get update -qq &&
           DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
      echo "tessera: apt-get could not install ${missing[*]} (offline, or not root?)" >&2
    fi
    for p in "${required[@]}"; do
      if ! dpkg -s "$p" >/dev/null 2>&1; then
        echo "tessera: required package '$p' is missing; install it (apt-get install $p) and rerun" >&2
        return 1
      fi
    done
  fi

  local cmake_version
  cmake_version=$(cmake --version | sed -n 's/^cmake version \([0-9.]*\).*/\1/p')
  if [[ $(printf '%s\n' 3.25 "$cmake_version" | sort -V | head -1) != 3.25 ]]; then
    echo "tessera: CMake >= 3.25 needed, found $cmake_version" >&2
    return 1
  fi

  if ! command -v nvcc >/dev/null; then
    local dir
    for dir in "${CUDA_HOME:-}/bin" /usr/local/cuda/bin /usr/local/cuda-13*/bin; do
      if [[ -x $dir/nvcc ]]; then
        export PATH="$dir:$PATH"
        break
      fi
    done
  fi
  if ! command -v nvcc >/dev/null; then
    echo "tessera: nvcc not found (looked on PATH, \$CUDA_HOME/bin and /usr/local/cuda*/bin)." >&2
    echo "tessera: install the CUDA toolkit 13 (nvcc + cuBLAS) or set CUDA_HOME." >&2
    return 1
  fi
  echo "tessera: $(cmake --version | head -1), $(g++ --version | head -1), nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p') at $(command -v nvcc)"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  set -euo pipefail
  tessera_install_deps
fi
