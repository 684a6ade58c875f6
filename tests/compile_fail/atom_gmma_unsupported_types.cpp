// SPDX-License-Identifier: Apache-2.0
// Part of Tessera.
// expect-error: SM90_GMMA_SS: no wgmma for these types
//
// bf16 inputs with an f16 accumulator: wgmma has no such form.
#include <tessera/atom.hpp>

using namespace tessera;

int main() {
  MMA_Atom<SM90_GMMA_SS<half_t, bfloat16_t, bfloat16_t, 64>> atom;
  (void)atom;
  return 0;
}
