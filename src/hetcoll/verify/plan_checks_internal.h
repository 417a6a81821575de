// The checks every makespan model shares (internal to verify/): causality
// and completeness of broadcast, multicast, reduce and all-reduce plans,
// intervals that must not overlap on one resource (a port, a link), and the
// claimed numbers. verify_makespan.cpp (sender-speed model) and
// verify_graph.cpp (platform graphs) add what their model says about
// durations and resources.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/plan/plan.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll::verify_detail {

// What the shared checks need to know about the model.
struct StructureRules {
  ProcessorIndex node_count = 0;
  std::function<std::string_view(ProcessorIndex)> name;
  // Nodes that must take part (receive in a broadcast, send in a reduce);
  // routers do not. Empty function: every node.
  std::function<bool(ProcessorIndex)> is_participant;
  // Time of one combine at a node (0: computing is free).
  std::function<double(ProcessorIndex)> combine_time;
};

// Reduce: the index in plan.transfers of each node's one send, from the
// transfers `indices` (SIZE_MAX: the node sends nothing). A root that sends,
// or a node that sends twice, is added to `report` as a violation (messages
// with `describe` of the transfer and `name` of the node). O(indices + n).
std::vector<std::size_t> reduce_send_of(const MakespanPlan& plan, const std::vector<std::size_t>& indices,
                                        std::size_t node_count,
                                        const std::function<std::string(std::size_t)>& describe,
                                        const std::function<std::string_view(ProcessorIndex)>& name,
                                        VerifyReport& report);

// Reduce completeness: each contribution follows the unique chain of sends
// (send_of[p]: the index of p's send, SIZE_MAX when p sends nothing) and must
// end at the plan's root. Returns the processors whose chain runs into a
// cycle instead. O(n).
std::vector<ProcessorIndex> contributions_in_cycles(const MakespanPlan& plan, const std::vector<std::size_t>& send_of);

// What a plan file states besides its schedule, against the platform it is
// checked on: the processor count (participants), the time unit, the
// payload every transfer must carry for the operation (a reduce moves
// partial results, a broadcast or multicast the value; all-reduces carry
// both), and a multicast's helpers (exactly the receivers that are not
// targets). O(m + n).
void check_stated_facts(const MakespanPlan& plan, std::int64_t participants, const std::string& time_unit,
                        std::size_t node_count, const std::function<std::string_view(ProcessorIndex)>& name,
                        VerifyReport& report);

class PlanChecker {
 public:
  PlanChecker(const MakespanPlan& plan, StructureRules rules, double tolerance, VerifyReport& report);

  template <typename... Args>
  void violation(fmt::format_string<Args...> format, Args&&... args) {
    report_.add_violation(fmt::format(format, std::forward<Args>(args)...));
  }

  std::string_view name(ProcessorIndex p) const { return rules_.name(p); }
  // "transfers[i] (a -> b, 0..1)"
  std::string describe(std::size_t i) const;
  double tolerance() const { return tolerance_; }

  // One interval on one resource. Intervals on the same resource must not
  // overlap; `what` names the resource in messages ("one-port: a sends",
  // "link a -> b").
  struct Busy {
    std::size_t resource;
    double start, end;
    std::size_t transfer;
  };
  void check_no_overlap(std::vector<Busy> busy, std::size_t resource_count,
                        const std::function<std::string(std::size_t resource)>& what);

  // Causality and completeness for the operation, then the claims. Returns
  // the time the operation completes (the last message, or for a reduce the
  // root's last combine).
  double check_operation();

 private:
  bool participates(ProcessorIndex p) const { return !rules_.is_participant || rules_.is_participant(p); }
  void check_broadcast(const std::vector<std::size_t>& indices, double value_available_at);
  double check_reduce(const std::vector<std::size_t>& indices);
  void check_claims(double completion);

  const MakespanPlan& plan_;
  StructureRules rules_;
  double tolerance_;
  VerifyReport& report_;
};

}  // namespace hetcoll::verify_detail
