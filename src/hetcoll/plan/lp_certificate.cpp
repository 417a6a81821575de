#include "hetcoll/plan/lp_certificate.h"

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

}  // namespace hetcoll::lp
