#include "hetcoll/plan/verify_report.h"

#include <fmt/format.h>

namespace hetcoll {

void VerifyReport::add_violation(std::string message) {
  valid = false;
  ++violation_count;
  if (violations.size() < kMaxListedViolations) violations.push_back(std::move(message));
}

VerifyReport VerifyReport::unchecked() {
  VerifyReport report;
  report.add_violation("not checked yet");
  return report;
}

void VerifyReport::add_violations(const VerifyReport& other) {
  for (const auto& violation : other.violations) add_violation(violation);
  violation_count += other.violation_count - other.violations.size();
  if (!other.valid) valid = false;
}

std::string VerifyReport::summary() const {
  if (valid) return "valid";
  std::string text;
  for (const auto& line : violations) text += line + "\n";
  if (violation_count > violations.size()) {
    text += fmt::format("... and {} more violations\n", violation_count - violations.size());
  }
  return text;
}

std::string VerifyReport::joined(std::string_view separator) const {
  std::string text;
  for (const auto& line : violations) {
    if (!text.empty()) text += separator;
    text += line;
  }
  return text;
}

}  // namespace hetcoll
