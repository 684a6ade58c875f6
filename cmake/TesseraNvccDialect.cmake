# SPDX-License-Identifier: Apache-2.0
# Part of Tessera.
#
# Loaded through CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA, right after CMake's own
# rules for the CUDA compiler. CMake 3.25 predates nvcc 12/13 and knows no
# C++20 dialect flag for it, so CUDA_STANDARD 20 and the cuda_std_20 compile
# feature fail at configure time. nvcc has accepted -std=c++20 since 12.0.
if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA"
   AND CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0
   AND NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
