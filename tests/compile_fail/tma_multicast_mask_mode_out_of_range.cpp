// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: create_tma_multicast_mask: a listed mode is not a mode of the cluster layout
// Misuse: Modes<2> of a rank-2 (M,N) cluster layout.
#include <tessera/tma/multicast_mask.hpp>

using namespace tessera;

unsigned misuse() { return create_tma_multicast_mask<2>(make_layout(Shape<_2, _2>{}), make_coord(1, 0)); }
