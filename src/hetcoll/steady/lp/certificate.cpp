#include "hetcoll/steady/lp/certificate.h"

#include <set>

namespace hetcoll::lp {

LpCertificate make_certificate(const Model& model, const Solution& solution, std::string formulation) {
  LpCertificate certificate;
  certificate.formulation = std::move(formulation);
  certificate.bound = 0;
  for (int i = 0; i < model.row_count(); ++i) {
    const auto& y = solution.dual[static_cast<std::size_t>(i)];
    if (y == 0) continue;
    certificate.bound += model.rhs(i) * y;
    certificate.duals.push_back({model.label(i), y});
  }
  return certificate;
}

std::string check_certificate(const Model& model, const LpCertificate& certificate) {
  std::set<std::pair<std::string, std::vector<std::string>>> rows;
  std::vector<Rational> dual(static_cast<std::size_t>(model.row_count()));
  const DualLookup lookup(certificate);
  Rational bound = 0;
  for (int i = 0; i < model.row_count(); ++i) {
    const auto& label = model.label(i);
    if (label.kind.empty()) return "row " + std::to_string(i) + " of the model has no label";
    if (!rows.insert({label.kind, label.keys}).second) return "two rows of the model share the label " + label.kind;
    dual[static_cast<std::size_t>(i)] = lookup(label.kind, label.keys);
    bound += model.rhs(i) * dual[static_cast<std::size_t>(i)];
  }
  for (const auto& entry : certificate.duals) {
    if (!rows.count({entry.row.kind, entry.row.keys})) {
      std::string keys;
      for (const auto& key : entry.row.keys) keys += " " + key;
      return "the certificate names a row the model does not have: " + entry.row.kind + keys;
    }
  }
  std::string failure;
  if (!dual_feasible(model, dual, &failure)) return "duals are not feasible: " + failure;
  if (bound != certificate.bound) {
    return "b^T y = " + hetcoll::to_string(bound) + " differs from the claimed bound " + hetcoll::to_string(certificate.bound);
  }
  return "";
}

}  // namespace hetcoll::lp
