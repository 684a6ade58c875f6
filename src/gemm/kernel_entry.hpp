// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
//
// What a kernel translation unit includes to register itself: the public
// GemmKernel record. Each kernel file defines, in namespace
// tessera::kernels, one function `GemmKernel gemm_kernel_<name>()` returning
// its record; src/gemm/kernel_list.cpp lists the names.
#pragma once

#include "tessera/gemm/api.hpp"
