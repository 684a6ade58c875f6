// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The tensor layer: pointer tags, engines, Tensor, partitioning, zip and lazy
// views, and the element-wise / copy / gemm algorithms. Compiles with a plain
// host C++20 compiler; every function a kernel may call is TESSERA_HOST_DEVICE.

#include "tessera/layout.hpp"
#include "tessera/tensor/subbyte.hpp"
#include "tessera/tensor/pointer.hpp"
#include "tessera/tensor/swizzle_ptr.hpp"
#include "tessera/tensor/engine.hpp"
#include "tessera/tensor/tensor_impl.hpp"
#include "tessera/tensor/identity.hpp"
#include "tessera/tensor/partition.hpp"
#include "tessera/tensor/zip.hpp"
#include "tessera/tensor/transform_view.hpp"
#include "tessera/tensor/algorithm/copy.hpp"
#include "tessera/tensor/algorithm/cooperative_copy.hpp"
#include "tessera/tensor/algorithm/cooperative_gemm.hpp"
#include "tessera/tensor/algorithm/elementwise.hpp"
#include "tessera/tensor/algorithm/functional.hpp"
#include "tessera/tensor/algorithm/gemm.hpp"
#include "tessera/tensor/algorithm/prefetch.hpp"
#include "tessera/tensor/cache_policy.hpp"
#include "tessera/tensor/print_tensor.hpp"
