#include "hetcoll/steady/lp/certificate.h"
#include "hetcoll/steady/lp/certificate_json_internal.h"

#include <set>


#include "hetcoll/core/error.h"

namespace hetcoll::lp {

DualLookup::DualLookup(const LpCertificate& certificate) {
  for (const auto& entry : certificate.duals) values_[{entry.row.kind, entry.row.keys}] += entry.value;
}

Rational DualLookup::operator()(const std::string& kind, const std::vector<std::string>& keys) const {
  auto it = values_.find({kind, keys});
  return it == values_.end() ? Rational(0) : it->second;
}

bool DualLookup::contains(const std::string& kind, const std::vector<std::string>& keys) const {
  return values_.count({kind, keys}) != 0;
}

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

nlohmann::json certificate_to_json(const LpCertificate& certificate) {
  nlohmann::json duals = nlohmann::json::array();
  for (const auto& entry : certificate.duals) {
    duals.push_back({{"row", entry.row.kind}, {"keys", entry.row.keys}, {"value", hetcoll::to_string(entry.value)}});
  }
  return {{"formulation", certificate.formulation}, {"bound", hetcoll::to_string(certificate.bound)}, {"duals", duals}};
}

namespace {

Rational rational_field(const nlohmann::json& json, const std::string& where) {
  Rational value;
  if (json.is_string()) {
    if (parse_rational(json.get<std::string>(), value)) return value;
  } else if (json.is_number_integer()) {
    return Rational(BigInteger(std::to_string(json.get<long long>())));
  }
  throw InputError(where + ": expected an exact number such as \"2/9\"");
}

}  // namespace

LpCertificate certificate_from_json(const nlohmann::json& json, std::string_view field) {
  const std::string where(field);
  if (!json.is_object()) throw InputError(where + ": must be an object");
  LpCertificate certificate;
  if (!json.contains("formulation") || !json["formulation"].is_string()) {
    throw InputError(where + ".formulation: missing or not a string");
  }
  certificate.formulation = json["formulation"].get<std::string>();
  if (!json.contains("bound")) throw InputError(where + ".bound: missing");
  certificate.bound = rational_field(json["bound"], where + ".bound");
  if (!json.contains("duals") || !json["duals"].is_array()) throw InputError(where + ".duals: missing or not an array");
  std::size_t index = 0;
  for (const auto& entry : json["duals"]) {
    const std::string at = where + ".duals[" + std::to_string(index++) + "]";
    if (!entry.is_object() || !entry.contains("row") || !entry["row"].is_string()) {
      throw InputError(at + ".row: missing or not a string");
    }
    DualValue value;
    value.row.kind = entry["row"].get<std::string>();
    if (entry.contains("keys")) {
      if (!entry["keys"].is_array()) throw InputError(at + ".keys: not an array");
      for (const auto& key : entry["keys"]) {
        if (!key.is_string()) throw InputError(at + ".keys: every key must be a string");
        value.row.keys.push_back(key.get<std::string>());
      }
    }
    if (!entry.contains("value")) throw InputError(at + ".value: missing");
    value.value = rational_field(entry["value"], at + ".value");
    certificate.duals.push_back(std::move(value));
  }
  return certificate;
}

}  // namespace hetcoll::lp
