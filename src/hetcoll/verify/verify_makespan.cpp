#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "hetcoll/verify/plan_checks_internal.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

namespace {

double cluster_tolerance(const Cluster& cluster, const MakespanPlan& plan) {
  double scale = cluster.fastest_time();
  for (const auto& transfer : plan.transfers) scale = std::max(scale, std::fabs(transfer.end));
  return kRelativeTimeTolerance * scale;
}

class Checker {
 public:
  Checker(const Cluster& cluster, const MakespanPlan& plan)
      : cluster_(cluster),
        plan_(plan),
        tolerance_(cluster_tolerance(cluster, plan)),
        checks_(plan, {cluster.size(), [&cluster](ProcessorIndex p) -> const std::string& { return cluster.id(p); },
                       {}, {}},
                tolerance_, report_) {}

  VerifyReport run() {
    report_.measured_makespan = last_completion(plan_.transfers);
    if (!check_well_formed()) return std::move(report_);
    check_one_port();
    checks_.check_operation();
    return std::move(report_);
  }

 private:
  template <typename... Args>
  void violation(fmt::format_string<Args...> format, Args&&... args) {
    checks_.violation(format, std::forward<Args>(args)...);
  }
  const std::string& name(ProcessorIndex p) const { return cluster_.id(p); }
  std::string describe(std::size_t i) const { return checks_.describe(i); }

  bool check_well_formed() {
    const ProcessorIndex n = cluster_.size();
    if (plan_.root < 0 || plan_.root >= n) {
      violation("the plan's root/source is not a processor of the cluster");
      return false;
    }
    bool ok = true;
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      const auto& t = plan_.transfers[i];
      if (t.from < 0 || t.from >= n || t.to < 0 || t.to >= n) {
        violation("transfers[{}]: names a processor outside the cluster", i);
        ok = false;
        continue;
      }
      if (t.from == t.to) violation("{}: a processor sends to itself", describe(i));
      if (!(t.start >= -tolerance_)) violation("{}: starts before time 0", describe(i));
      double expected = cluster_.transmission_time(t.from);
      if (!(std::fabs((t.end - t.start) - expected) <= tolerance_ + kRelativeTimeTolerance * expected)) {
        violation("{}: lasts {} but {} takes {} to send a message", describe(i), t.end - t.start, name(t.from),
                  expected);
      }
    }
    for (auto target : plan_.targets) {
      if (target < 0 || target >= n) {
        violation("targets: names a processor outside the cluster");
        ok = false;
      }
    }
    return ok;
  }

  // One-port: per processor, the intervals in which it sends or receives
  // must not overlap (sending and receiving count alike in this model).
  void check_one_port() {
    std::vector<verify_detail::PlanChecker::Busy> busy;
    busy.reserve(2 * plan_.transfers.size());
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      const auto& t = plan_.transfers[i];
      busy.push_back({static_cast<std::size_t>(t.from), t.start, t.end, i});
      busy.push_back({static_cast<std::size_t>(t.to), t.start, t.end, i});
    }
    checks_.check_no_overlap(std::move(busy), static_cast<std::size_t>(cluster_.size()), [&](std::size_t p) {
      return fmt::format("one-port: {} takes part in two messages at once", name(static_cast<ProcessorIndex>(p)));
    });
  }

  const Cluster& cluster_;
  const MakespanPlan& plan_;
  double tolerance_ = 0;
  VerifyReport report_;
  verify_detail::PlanChecker checks_;
};

}  // namespace

void VerifyReport::add_violation(std::string message) {
  valid = false;
  ++violation_count;
  if (violations.size() < kMaxListedViolations) violations.push_back(std::move(message));
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

VerifyReport verify(const Cluster& cluster, const MakespanPlan& plan) { return Checker(cluster, plan).run(); }

}  // namespace hetcoll
