// Dual certificates that plan files carry (STABLE INTERFACE): the data only.
// Making one from a solved LP and re-checking one against a rebuilt LP are
// the solver's business (steady/lp/certificate.h); verify/ re-derives the
// dual rows from the platform without either.
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
#include <utility>
#include <vector>

#include "hetcoll/core/rational.h"

namespace hetcoll::lp {

// What a row of a linear program means: its kind and keys, e.g.
// {"send_port", ["A"]}, so that a checker can rebuild it from the platform.
struct RowLabel {
  std::string kind;
  std::vector<std::string> keys;
};

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

// JSON reading and writing: plan/lp_certificate_json_internal.h (inside the
// library, with the plan files).

}  // namespace hetcoll::lp
