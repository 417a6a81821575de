// Platforms from the steady-state paper's worked examples, built once for the
// tests and the `steady-paper` experiment (Legrand, Marchal, Robert 2003).
#pragma once

#include "hetcoll/model/platform.h"

namespace hetcoll {

// Fig. 6(a): three processors P0, P1, P2, every edge of cost 1 both ways;
// P0 does two reduction tasks per time unit (speed 2), P1 and P2 one. The
// best reduce throughput to P0 is 1 (Fig. 6(b)).
Platform legrand_marchal_robert_figure6_platform();

}  // namespace hetcoll
