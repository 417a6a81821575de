// JSON form of dual certificates (lp_certificate_json_internal.h).
#include "hetcoll/plan/lp_certificate_json_internal.h"

#include <string>

#include "hetcoll/core/error.h"

namespace hetcoll::lp {

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
