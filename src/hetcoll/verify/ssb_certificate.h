// Independent check of the SSB certificate (formulation "ssb-broadcast"):
// the optimal throughput of a pipelined broadcast, Beaumont, Marchal, Robert,
// "Broadcast trees for heterogeneous platforms", 2004, sec. 4.1, eq. 2.
//
// The dual rows are re-derived from the platform alone, without the
// planner's linear program (steady/broadcast/ssb_lp.h): maximise TP over
// x >= 0 subject to
//   send_port [u]      sum over e leaving u of c(e) n(e) <= 1   (one-port u)
//   receive_port [u]   sum over e entering u of c(e) n(e) <= 1  (one-port u)
//   link [a, b, e]     c(e) n(e) <= 1         (an end of e has unlimited ports)
//   cut [X]            TP - sum over e entering X of n(e) <= 0
//                      (X holds a target, not the source: max-flow min-cut)
// and, when the certificate comes from the full flow program instead, for
// every target w: conservation [w, v] (v not the source): in x_w - out x_w -
// [v = w] TP = 0; copy [w, a, b, e] (a != w, b != source): x_w(e) - n(e) <= 0.
// The certificate's duals y must have y >= 0 on the <= rows and satisfy
// A^T y >= (1 for TP, 0 otherwise) column by column; then b^T y (the sum of
// the port and link duals) bounds every schedule's throughput (weak
// duality). The primal side is checked by a second method: the plan's edge
// rates respect every port and carry TP to every target (exact max-flow).
// Complexity: O(d (n + m)) for the duals (d cut rows), O(n m^2) per target
// for the max-flows, all in exact rationals.
#pragma once

#include <string>
#include <vector>

#include "hetcoll/core/rational.h"
#include "hetcoll/model/platform.h"
#include "hetcoll/plan/lp_certificate.h"

namespace hetcoll {

// `slice_times`: c(e) per platform edge (the plan's costs, as doubles); the
// targets: every participant but the source. Returns "" when the
// certificate proves `throughput` and `edge_rates` reach it, else the first
// failure in words.
std::string check_ssb_certificate(const Platform& platform, ProcessorIndex source,
                                  const std::vector<double>& slice_times, const std::vector<ProcessorIndex>& targets,
                                  const Rational& throughput, const std::vector<Rational>& edge_rates,
                                  const lp::LpCertificate& certificate);

}  // namespace hetcoll
