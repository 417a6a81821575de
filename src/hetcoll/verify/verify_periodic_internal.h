// The periodic plan checker (verify_periodic.h states the contract), shared
// by the files that hold its checks: verify_periodic_checks.cpp (the header,
// slots, flows and the entry point), verify_periodic_trees.cpp
// (conservation and trees, per operation), verify_periodic_certificate.cpp
// (the claims and the dual certificate). Internal to verify/.
#pragma once

#include "hetcoll/verify/verify_periodic.h"

#include <charconv>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/plan/periodic_plan_json.h"
#include "hetcoll/model/steady_platform.h"
#include "hetcoll/verify/ssb_certificate.h"
#include "hetcoll/verify/verify_tree.h"

namespace hetcoll::periodic_check {

// An exact number for a message: whole when short, else its value and size
// (the exact periods and weights of multi-tree plans run to hundreds of
// digits; the plan file has them whole).
inline std::string readable(const Rational& value) {
  std::string exact = to_string(value);
  if (exact.size() <= 40) return exact;
  return fmt::format("{:.12g} (a fraction of {} characters)", to_double(value), exact.size());
}

using EdgeType = std::pair<std::size_t, MessageType>;
using TaskKey = std::tuple<ProcessorIndex, int, int, int>;  // node, first, split, last

class PeriodicChecker {
 public:
  PeriodicChecker(const Platform& platform, const PeriodicPlan& plan, std::optional<double> message_size)
      : platform_(platform), plan_(plan), message_size_(message_size ? message_size : plan.message_size) {}

  PeriodicVerifyReport run();

 private:
  template <typename... Args>
  void violation(fmt::format_string<Args...> format, Args&&... args) {
    report_.add_violation(fmt::format(format, std::forward<Args>(args)...));
  }

  const std::string& id(ProcessorIndex v) const { return platform_.id(v); }
  bool known(ProcessorIndex v) const { return v >= 0 && v < platform_.size(); }
  std::string type_name(const MessageType& type) const { return message_type_name(type, platform_); }
  const Rational ops() const { return Rational(plan_.operations_per_period); }

  bool takes_part(ProcessorIndex v, const char* role);

  bool check_header();

  bool valid_type(const MessageType& type) const;

  std::optional<std::size_t> edge(ProcessorIndex from, ProcessorIndex to, const std::string& where);

  bool uses_sender_port(std::size_t e) const;
  bool uses_receiver_port(std::size_t e) const;

  void check_slots();

  void check_flows();

  void compare_totals(const std::map<EdgeType, Rational>& expected, const std::map<EdgeType, Rational>& actual,
                      const char* expected_name, const char* actual_name);

  // ---- scatter / gossip ----------------------------------------------------

  void check_personal_conservation();

  void check_personal_trees();

  // ---- reduce --------------------------------------------------------------

  bool valid_task(ProcessorIndex node, int first, int split, int last, const std::string& where);

  void check_reduce_conservation();

  void check_reduce_trees();

  // ---- broadcast: weighted arborescences --------------------------------------

  void check_broadcast_trees();

  void check_ssb_certificate();

  // ---- claims and certificate ----------------------------------------------

  void check_claims();

  std::optional<ProcessorIndex> node_key(const std::string& key) const;

  static std::optional<int> int_key(const std::string& key);

  void check_certificate();

  bool is_source(ProcessorIndex s);

  bool exempt(ProcessorIndex v, int first, int last) const;

  Rational port_price(std::size_t e) const;

  static Rational lookup(const std::map<ProcessorIndex, Rational>& potentials, ProcessorIndex v);

  void reduced_cost_violation(const std::string& column, const Rational& value, const Rational& needed);

  void check_per_type_duals();

  void check_by_source_duals();

  Rational value_price(ProcessorIndex v, int first, int last) const;

  void check_reduce_duals();

  const Platform& platform_;
  const PeriodicPlan& plan_;
  std::optional<double> message_size_;
  SteadyPlatform view_;
  PeriodicVerifyReport report_;
  std::set<std::pair<ProcessorIndex, ProcessorIndex>> pairs_;
  std::set<ProcessorIndex> pair_sources_;  // the sources of pairs_, filled on first use
  int count_ = 0;
  std::vector<int> position_;
  std::map<EdgeType, Rational> slot_total_;
  std::map<EdgeType, Rational> flow_total_;
  std::map<std::tuple<std::size_t, MessageType, int>, Rational> slot_tree_total_;
  std::map<std::tuple<std::size_t, MessageType, int>, Rational> expected_tree_edges_;
  std::map<TaskKey, Rational> task_total_;
  std::map<std::tuple<ProcessorIndex, int, int, int, int>, Rational> task_tree_total_;
  std::map<std::tuple<ProcessorIndex, int, int, int, int>, Rational> expected_tree_tasks_;
  std::size_t labelled_transfers_ = 0;
  std::size_t unlabelled_transfers_ = 0;
  // Certificate, by row.
  std::vector<Rational> send_port_;
  std::vector<Rational> receive_port_;
  std::vector<Rational> compute_;
  std::map<std::pair<ProcessorIndex, ProcessorIndex>, std::map<ProcessorIndex, Rational>> pair_potential_;
  std::map<std::pair<ProcessorIndex, ProcessorIndex>, Rational> pair_throughput_;
  std::map<ProcessorIndex, std::map<ProcessorIndex, Rational>> source_potential_;
  std::map<std::tuple<ProcessorIndex, int, int>, Rational> value_potential_;
  Rational reduce_throughput_ = 0;
};

}  // namespace hetcoll::periodic_check
