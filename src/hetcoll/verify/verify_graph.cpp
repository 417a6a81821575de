#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/model/eager_model.h"
#include "hetcoll/model/element_names.h"
#include "hetcoll/verify/plan_checks_internal.h"
#include "hetcoll/verify/verify.h"

namespace hetcoll {

namespace {

double graph_tolerance(const GraphNetwork& network, const MakespanPlan& plan) {
  double scale = network.tolerance() / kRelativeTimeTolerance;
  for (const auto& transfer : plan.transfers) scale = std::max(scale, std::fabs(transfer.end));
  return kRelativeTimeTolerance * scale;
}

class GraphChecker {
 public:
  GraphChecker(const GraphNetwork& network, const MakespanPlan& plan)
      : network_(network),
        platform_(network.platform()),
        plan_(plan),
        tolerance_(graph_tolerance(network, plan)),
        checks_(plan,
                {network.node_count(),
                 [this](ProcessorIndex p) -> const std::string& { return platform_.id(p); },
                 [this](ProcessorIndex p) { return network_.is_participant(p); },
                 // The eager model has no computation (model/eager_model.h).
                 [this](ProcessorIndex p) { return eager() ? 0.0 : network_.combine_time(p); }},
                tolerance_, report_) {}

  VerifyReport run() {
    report_.measured_makespan = last_completion(plan_.transfers);
    if (!check_well_formed()) return std::move(report_);
    check_routes();
    if (eager()) {
      if (plan_.operation == Operation::broadcast) {
        check_eager_times();
      } else if (plan_.operation == Operation::reduce) {
        check_eager_reduce_times();
      } else {
        violation("the eager model plans broadcasts and reduces only; this plan is a {}", to_string(plan_.operation));
        return std::move(report_);
      }
    } else {
      check_ports();
    }
    checks_.check_operation();
    verify_detail::check_stated_facts(
        plan_, static_cast<std::int64_t>(network_.participants().size()), platform_.time_unit(),
        static_cast<std::size_t>(platform_.size()), [this](ProcessorIndex p) -> std::string_view { return name(p); },
        report_);
    return std::move(report_);
  }

 private:
  template <typename... Args>
  void violation(fmt::format_string<Args...> format, Args&&... args) {
    checks_.violation(format, std::forward<Args>(args)...);
  }
  const std::string& name(ProcessorIndex p) const { return platform_.id(p); }
  std::string describe(std::size_t i) const { return checks_.describe(i); }

  bool check_well_formed() {
    const ProcessorIndex n = network_.node_count();
    auto known = [&](ProcessorIndex p) { return p >= 0 && p < n; };
    if (!known(plan_.root)) {
      violation("the plan's root/source is not a node of the platform");
      return false;
    }
    if (!network_.is_participant(plan_.root)) {
      violation("the plan's root/source is {}, not a participating host; only hosts taking part hold data",
                describe_element(platform_, plan_.root));
    }
    bool ok = true;
    for (auto target : plan_.targets) {
      if (!known(target)) {
        violation("targets: names a node outside the platform");
        ok = false;
      } else if (!network_.is_participant(target)) {
        violation("targets: {} is not a participating host; only hosts taking part hold data",
                  describe_element(platform_, target));
      }
    }
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      const auto& t = plan_.transfers[i];
      if (!known(t.from) || !known(t.to)) {
        violation("transfers[{}]: names a node outside the platform", i);
        ok = false;
        continue;
      }
      for (const auto& edge : t.route) {
        if (edge >= platform_.edges().size()) {
          violation("transfers[{}]: its route names edge {}, the platform has {} edges", i, edge,
                    platform_.edges().size());
          ok = false;
          break;
        }
      }
      if (t.from == t.to) violation("{}: a node sends to itself", describe(i));
      for (auto end : {t.from, t.to}) {
        if (!network_.is_participant(end)) {
          violation("{}: {} is not a participating host; links and routers forward inside routes but hold no data",
                    describe(i), describe_element(platform_, end));
        }
      }
      if (!(t.start >= -tolerance_)) violation("{}: starts before time 0", describe(i));
    }
    return ok;
  }

  std::string path_text(ProcessorIndex from, std::span<const std::size_t> edges) const {
    std::string text = name(from);
    for (auto e : edges) text += " -> " + name(platform_.edges()[e].to);
    return text;
  }

  // Each transfer's route must be the platform's route between its ends;
  // the route actually used (the plan's, or the platform's when the plan
  // gives none) is kept for the port check.
  void check_routes() {
    routes_.assign(plan_.transfers.size(), {});
    std::vector<std::size_t> order;
    order.reserve(plan_.transfers.size());
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      if (plan_.transfers[i].from != plan_.transfers[i].to) order.push_back(i);
    }
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const auto& x = plan_.transfers[a];
      const auto& y = plan_.transfers[b];
      return x.from != y.from ? x.from < y.from : x.to < y.to;
    });
    RouteFinder finder = network_.route_finder();
    std::vector<ProcessorIndex> receivers;
    for (std::size_t group = 0; group < order.size();) {
      const ProcessorIndex sender = plan_.transfers[order[group]].from;
      std::size_t group_end = group;
      receivers.clear();
      while (group_end < order.size() && plan_.transfers[order[group_end]].from == sender) {
        const ProcessorIndex to = plan_.transfers[order[group_end]].to;
        if (receivers.empty() || receivers.back() != to) receivers.push_back(to);
        ++group_end;
      }
      auto found = finder.routes_from(sender, receivers);
      for (std::size_t k = group; k < group_end; ++k) {
        const std::size_t i = order[k];
        const auto& t = plan_.transfers[i];
        const auto& platform_route =
            found[static_cast<std::size_t>(std::lower_bound(receivers.begin(), receivers.end(), t.to) -
                                           receivers.begin())];
        if (!platform_route) {
          violation("{}: the platform has no route from {} to {}", describe(i), name(t.from), name(t.to));
          continue;
        }
        if (!t.route.empty() && t.route != *platform_route) {
          violation("{}: follows {} but the platform's route is {}", describe(i), path_text_checked(t),
                    path_text(t.from, *platform_route));
          continue;
        }
        routes_[i] = *platform_route;
        if (eager()) continue;  // durations: check_eager_times
        const double expected = network_.route_time(*platform_route);
        const double duration = t.end - t.start;
        if (!(std::fabs(duration - expected) <= tolerance_ + kRelativeTimeTolerance * expected)) {
          violation("{}: lasts {} but its route {} takes {}", describe(i), duration,
                    path_text(t.from, *platform_route), expected);
        }
      }
      group = group_end;
    }
  }

  bool eager() const { return plan_.model == PlanModel::eager; }

  // The eager model (model/eager_model.h): a transfer lasts its route's
  // time (delay + occupancy) and holds its sender's link for its occupancy
  // only, from its start: a sender's transfers, by start time, each start
  // once the previous one has left the link (its latency overlaps the next
  // sends), and the first no earlier than the sender holds the message
  // (causality, checked with the operation). No receive or router ports.
  void check_eager_times() {
    const auto n = static_cast<std::size_t>(network_.node_count());
    std::vector<std::vector<std::size_t>> sends(n);
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      const auto& t = plan_.transfers[i];
      if (t.from == t.to || routes_[i].empty()) continue;  // reported already
      sends[static_cast<std::size_t>(t.from)].push_back(i);
    }
    for (auto& list : sends) {
      std::stable_sort(list.begin(), list.end(),
                       [&](std::size_t a, std::size_t b) { return plan_.transfers[a].start < plan_.transfers[b].start; });
      double link_free_at = -kNoRoute;
      std::size_t previous = SIZE_MAX;
      for (auto i : list) {
        const auto& t = plan_.transfers[i];
        const EagerCost cost = eager_cost_checked(i);
        if (previous != SIZE_MAX && t.start < link_free_at - tolerance_) {
          violation("{}: eager model: {} starts this send at {}, before its previous one ({}) has left its link at {}",
                    describe(i), name(t.from), t.start, describe(previous), link_free_at);
        }
        link_free_at = std::max(link_free_at, t.start + cost.occupancy);
        previous = i;
      }
    }
  }

  // Transfer i's eager cost on its route; reports a duration other than the
  // route's time (delay + occupancy).
  EagerCost eager_cost_checked(std::size_t i) {
    const auto& t = plan_.transfers[i];
    const EagerCost cost = eager_cost(network_, routes_[i]);
    const double expected = cost.time();
    const double duration = t.end - t.start;
    if (!(std::fabs(duration - expected) <= tolerance_ + kRelativeTimeTolerance * expected)) {
      violation("{}: eager model: lasts {} but its route takes {} (latency {} + occupancy {})", describe(i),
                duration, expected, cost.delay, cost.occupancy);
    }
    return cost;
  }

  // The eager reduce (makespan/eager/eager_reduce.h): a transfer lasts its
  // route's time and holds its RECEIVER's link for its occupancy at its
  // end, [end - occupancy, end]; a receiver's windows must not overlap (its
  // latencies may). That each node sends once, after its children's
  // arrivals, is the reduce's causality check (no combine time: the eager
  // model has no computation). No send or router ports.
  void check_eager_reduce_times() {
    const auto n = static_cast<std::size_t>(network_.node_count());
    std::vector<std::vector<std::pair<double, std::size_t>>> receives(n);  // (window start, transfer)
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      const auto& t = plan_.transfers[i];
      if (t.from == t.to || routes_[i].empty()) continue;  // reported already
      const EagerCost cost = eager_cost_checked(i);
      receives[static_cast<std::size_t>(t.to)].emplace_back(t.end - cost.occupancy, i);
    }
    for (std::size_t p = 0; p < n; ++p) {
      auto& list = receives[p];
      std::sort(list.begin(), list.end());
      for (std::size_t k = 1; k < list.size(); ++k) {
        const auto& previous = plan_.transfers[list[k - 1].second];
        if (list[k].first < previous.end - tolerance_) {
          violation("{}: eager model: {}'s link receives this message from {}, before its previous one ({}) has "
                    "arrived at {}",
                    describe(list[k].second), name(static_cast<ProcessorIndex>(p)), list[k].first,
                    describe(list[k - 1].second), previous.end);
        }
      }
    }
  }

  // A route as written in the plan, even when it is not a path.
  std::string path_text_checked(const Transfer& t) const {
    std::string text;
    for (std::size_t k = 0; k < t.route.size(); ++k) {
      const auto& edge = platform_.edges()[t.route[k]];
      if (k == 0) text = name(edge.from);
      else if (platform_.edges()[t.route[k - 1]].to != edge.from) text += " ... " + name(edge.from);
      text += " -> " + name(edge.to);
    }
    return text;
  }

  // No one-port node's send or receive port serves two transfers at once:
  // the sender's, the receiver's, and those of every one-port node crossed.
  void check_ports() {
    std::vector<verify_detail::PlanChecker::Busy> busy;
    busy.reserve(2 * plan_.transfers.size());
    std::vector<PortId> ports;
    for (std::size_t i = 0; i < plan_.transfers.size(); ++i) {
      const auto& t = plan_.transfers[i];
      ports.clear();
      network_.held_ports(t.from, t.to, routes_[i], ports);
      for (auto port : ports) busy.push_back({port, t.start, t.end, i});
    }
    checks_.check_no_overlap(std::move(busy), network_.port_count(), [&](std::size_t port) {
      return fmt::format("one-port: {} serves two messages at once", network_.describe_port(static_cast<PortId>(port)));
    });
  }

  const GraphNetwork& network_;
  const Platform& platform_;
  const MakespanPlan& plan_;
  double tolerance_ = 0;
  VerifyReport report_;
  verify_detail::PlanChecker checks_;
  std::vector<Route> routes_;
};

}  // namespace

VerifyReport verify(const GraphNetwork& network, const MakespanPlan& plan) {
  return GraphChecker(network, plan).run();
}

}  // namespace hetcoll
