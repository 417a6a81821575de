// Dual certificates of the LP solver: made from an optimal solution, and
// re-checked against a Model the caller rebuilds (the generic route, for
// formulations verify/ does not spell out). The certificate itself, and its
// JSON form, belong to the plans that carry it: plan/lp_certificate.h.
#pragma once

#include <string>

#include "hetcoll/plan/lp_certificate.h"
#include "hetcoll/steady/lp/linear_program.h"

namespace hetcoll::lp {

// The certificate of an optimal solution: its non-zero duals, by row label.
LpCertificate make_certificate(const Model& model, const Solution& solution, std::string formulation);

// Re-checks a certificate against `model` (rebuilt by the caller): every
// labelled row of the model takes its dual from the certificate, the dual
// must be feasible, b^T y must equal `bound`, and every dual in the
// certificate must name a row of the model. Returns the failure in words,
// or "" when the certificate proves the bound.
std::string check_certificate(const Model& model, const LpCertificate& certificate);

}  // namespace hetcoll::lp
