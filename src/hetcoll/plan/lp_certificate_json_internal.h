// JSON form of dual certificates (inside the library: nlohmann_json is a
// private dependency). See lp_certificate.h for the format.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "hetcoll/plan/lp_certificate.h"

namespace hetcoll::lp {

nlohmann::json certificate_to_json(const LpCertificate& certificate);
// Throws InputError naming `field` (e.g. "plan.json: certificate") when malformed.
LpCertificate certificate_from_json(const nlohmann::json& json, std::string_view field);

}  // namespace hetcoll::lp
