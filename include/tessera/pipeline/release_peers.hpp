// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
#pragma once

// Which CTAs of a cluster a consumer's release must reach, for
// PipelineTmaAsync (pipeline_tma_async.cuh). Host and device, constexpr.
//
// A GEMM cluster of X x Y CTAs (X along M, Y along N; CTA (x, y) has rank
// x + X * y, the hardware's %cluster_ctarank) shares its operands' tiles by
// TMA multicast: an A tile goes to every CTA of the same x (create_tma_
// multicast_mask<N-mode>), a B tile to every CTA of the same y. So stage s
// of CTA (x, y) is written by the producers of its peers
//
//   peers(x, y) = { (x', y) : x' in [0, X) }  u  { (x, y') : y' in [0, Y) }
//
// X + Y - 1 CTAs, itself among them. Each of those producers may refill the
// stage only once (x, y)'s consumers have released it, so a release arrives
// on the empty barrier of every peer. The relation is symmetric (Q is a
// peer of P iff P is a peer of Q), so every CTA's empty barrier receives one
// release from each of its X + Y - 1 peers per releasing agent: with W
// consumer warps per CTA, (X + Y - 1) * W arrivals per phase, the count the
// pipeline initialises it with. A kernel that multicasts along one
// dimension only (or not at all) is still correct; it waits for a few
// releases it did not need.
//
// Peer j of CTA (x, y), for j in [0, X + Y - 1): j < X is (j, y), the CTAs
// sharing its y in x order; j >= X is (x, y'), the y' != y in order.

#include <cstdint>

#include <tessera/config.hpp>

namespace tessera {

// X + Y - 1: the CTAs a release reaches, itself included.
// @pre cluster_x >= 1, cluster_y >= 1
[[nodiscard]] TESSERA_HOST_DEVICE constexpr int release_peer_count(int cluster_x, int cluster_y) {
  return cluster_x + cluster_y - 1;
}

// The rank (x + X * y) of peer j of CTA (cta_x, cta_y).
// @pre 0 <= j < release_peer_count(cluster_x, cluster_y); cta_x < cluster_x, cta_y < cluster_y
// @post the ranks for j in [0, release_peer_count) are distinct and include cta_x + cluster_x * cta_y
[[nodiscard]] TESSERA_HOST_DEVICE constexpr std::uint32_t release_peer_rank(int cluster_x, int cluster_y, int cta_x,
                                                                           int cta_y, int j) {
  (void)cluster_y;
  if (j < cluster_x) return std::uint32_t(j + cluster_x * cta_y);
  int y = j - cluster_x;
  if (y >= cta_y) ++y;  // skip this CTA's own y, already reached as (cta_x, cta_y) above
  return std::uint32_t(cta_x + cluster_x * y);
}

}  // namespace tessera
