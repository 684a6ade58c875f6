// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// The TMA tensor-map declarations moved to the public header; this include
// keeps `#include "tma/tensor_map.hpp"` working inside the runtime and tests.
#include <tessera/tma/tensor_map.hpp>
