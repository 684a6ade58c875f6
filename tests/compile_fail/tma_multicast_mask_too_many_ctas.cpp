// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: create_tma_multicast_mask: a cluster has at most 16 CTAs
// Misuse: a static (4,8) cluster layout, 32 CTAs, past the 16-bit mask.
#include <tessera/tma/multicast_mask.hpp>

using namespace tessera;

unsigned misuse() { return create_tma_multicast_mask<0>(make_layout(Shape<_4, _8>{}), make_coord(1, 2)); }
