// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The whole layout algebra: integers, tuples, layouts, composition,
// complement, inverses, divides, products, swizzles and printing.
// Plain C++20; no CUDA headers needed.

#include "tessera/config.hpp"
#include "tessera/core/array.hpp"
#include "tessera/core/integral_constant.hpp"
#include "tessera/core/tuple.hpp"
#include "tessera/core/int_tuple.hpp"
#include "tessera/core/underscore.hpp"
#include "tessera/core/stride.hpp"
#include "tessera/core/arithmetic_tuple.hpp"
#include "tessera/core/layout.hpp"
#include "tessera/core/swizzle.hpp"
#include "tessera/core/composed_layout.hpp"
#include "tessera/core/composition.hpp"
#include "tessera/core/complement.hpp"
#include "tessera/core/inverse.hpp"
#include "tessera/core/divide.hpp"
#include "tessera/core/product.hpp"
#include "tessera/core/recast.hpp"
#include "tessera/core/print.hpp"
#include "tessera/core/debug.hpp"
