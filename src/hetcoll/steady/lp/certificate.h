// Dual certificates that plan files carry (STABLE INTERFACE).
//
// A steady-state plan claims "no schedule of this operation on this platform
// has a higher throughput than `bound`". The proof is a dual solution y of
// the operation's linear program: if y is dual feasible (right signs,
// A^T y >= c) then b^T y bounds every feasible point (weak duality). The
// certificate stores y row by row under the row's *meaning* (lp::RowLabel:
// kind and keys, e.g. {"send_port", ["A"]} or {"conservation", ["B", "C"]}),
// never under a solver's row number, so a checker can re-derive every dual
// constraint from the platform alone and re-check the bound exactly:
//  * verify/ does this independently of the LP builders, per formulation
//    (see verify/verify_periodic.h for the formulations it knows);
//  * check_certificate() does it against a Model rebuilt from the platform
//    (the generic route, for formulations verify/ does not spell out).
// Rows with a zero dual are omitted. Values are exact rationals, written in
// JSON as "p/q" strings.
//
// JSON form (docs/FORMATS.md, "certificate"):
//   {"formulation": "scatter-per-type", "bound": "2/9",
//    "duals": [{"row": "send_port", "keys": ["A"], "value": "1/9"}, ...]}
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/core/rational.h"
#include "hetcoll/steady/lp/linear_program.h"

namespace hetcoll::lp {

struct DualValue {
  RowLabel row;
  Rational value;
};

struct LpCertificate {
  std::string formulation;  // which linear program the duals belong to
  Rational bound;           // b^T y
  std::vector<DualValue> duals;

  bool empty() const { return formulation.empty(); }
};

// Duals by row label, for checkers: the value of a row (0 when absent).
class DualLookup {
 public:
  explicit DualLookup(const LpCertificate& certificate);
  Rational operator()(const std::string& kind, const std::vector<std::string>& keys) const;
  bool contains(const std::string& kind, const std::vector<std::string>& keys) const;

 private:
  std::map<std::pair<std::string, std::vector<std::string>>, Rational> values_;
};

// The certificate of an optimal solution: its non-zero duals, by row label.
LpCertificate make_certificate(const Model& model, const Solution& solution, std::string formulation);

// Re-checks a certificate against `model` (rebuilt by the caller): every
// labelled row of the model takes its dual from the certificate, the dual
// must be feasible, b^T y must equal `bound`, and every dual in the
// certificate must name a row of the model. Returns the failure in words,
// or "" when the certificate proves the bound.
std::string check_certificate(const Model& model, const LpCertificate& certificate);

// JSON reading and writing: steady/lp/certificate_json_internal.h (inside
// the library, with the plan files).

}  // namespace hetcoll::lp
