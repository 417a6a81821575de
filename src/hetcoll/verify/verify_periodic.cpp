// Longer than 800 lines: one checker (PeriodicChecker) whose checks share the plan's tallies (slots, flows, tree totals, dual prices); kept whole.
//
// The conservation and tree checks in detail (verify_periodic.h states the contract):
//
//  * conservation over a period: scatter/gossip — for every pair (s, t),
//    the messages s -> t are balanced at every node but s and t, and t gains
//    exactly `operations_per_period` of them; reduce — every partial result
//    v[k,m] is balanced at every node (received + computed = sent +
//    consumed), each participant's own value leaves it exactly
//    `operations_per_period` times, and the root gains exactly that many
//    final results; tasks run on participants only and fit in the period
//    (count x 1/speed summed <= period);
//  * the trees: weights positive and summing to the throughput (per pair for
//    scatter/gossip); scatter/gossip trees are paths from the source to the
//    target of their type; reduce trees are reduction trees (every value on
//    a node produced once, every participant's value used once, the result
//    on the root, nothing unreachable from it); weighted by period x weight,
//    their edges and tasks sum exactly to `flows` and `computations` (and,
//    where transfers name a tree, per tree);
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

namespace hetcoll {

namespace {

// An exact number for a message: whole when short, else its value and size
// (the exact periods and weights of multi-tree plans run to hundreds of
// digits; the plan file has them whole).
std::string readable(const Rational& value) {
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

  PeriodicVerifyReport run() {
    try {
      view_ = make_steady_platform(platform_, message_size_);
    } catch (const InputError& error) {
      violation("platform: {}", error.what());
      return std::move(report_);
    }
    if (!check_header()) return std::move(report_);
    check_slots();
    check_flows();
    if (plan_.operation == SteadyOperation::broadcast) {
      check_broadcast_trees();
    } else if (plan_.operation == SteadyOperation::reduce) {
      check_reduce_conservation();
      check_reduce_trees();
    } else {
      check_personal_conservation();
      check_personal_trees();
    }
    check_claims();
    check_certificate();
    return std::move(report_);
  }

 private:
  template <typename... Args>
  void violation(fmt::format_string<Args...> format, Args&&... args) {
    report_.add_violation(fmt::format(format, std::forward<Args>(args)...));
  }

  const std::string& id(ProcessorIndex v) const { return platform_.id(v); }
  bool known(ProcessorIndex v) const { return v >= 0 && v < platform_.size(); }
  std::string type_name(const MessageType& type) const { return message_type_name(type, platform_); }
  const Rational ops() const { return Rational(plan_.operations_per_period); }

  bool takes_part(ProcessorIndex v, const char* role) {
    if (!known(v)) {
      violation("{}: unknown node", role);
      return false;
    }
    const auto& node = platform_.node(v);
    if (node.kind != NodeKind::host || node.router) {
      violation("{}: {} is a router or network element, not a participant", role, id(v));
      return false;
    }
    return true;
  }

  bool check_header() {
    bool ok = true;
    switch (plan_.operation) {
      case SteadyOperation::scatter:
        ok = takes_part(plan_.root, "source") && ok;
        for (auto t : plan_.targets) ok = takes_part(t, "targets") && ok;
        if (plan_.targets.empty()) {
          violation("targets: none");
          ok = false;
        }
        if (ok) {
          for (auto t : plan_.targets) {
            if (t != plan_.root) pairs_.insert({plan_.root, t});
          }
        }
        break;
      case SteadyOperation::gossip:
        for (auto s : plan_.sources) ok = takes_part(s, "sources") && ok;
        for (auto t : plan_.targets) ok = takes_part(t, "targets") && ok;
        if (ok) {
          for (auto s : plan_.sources) {
            for (auto t : plan_.targets) {
              if (s != t) pairs_.insert({s, t});
            }
          }
        }
        break;
      case SteadyOperation::reduce: {
        count_ = static_cast<int>(plan_.participants.size());
        position_.assign(static_cast<std::size_t>(platform_.size()), -1);
        for (int r = 0; r < count_; ++r) {
          const auto p = plan_.participants[static_cast<std::size_t>(r)];
          if (!takes_part(p, "participants")) {
            ok = false;
            continue;
          }
          if (position_[static_cast<std::size_t>(p)] >= 0) {
            violation("participants: {} is listed twice", id(p));
            ok = false;
          }
          position_[static_cast<std::size_t>(p)] = r;
        }
        if (count_ < 2) {
          violation("participants: a reduce needs at least two");
          ok = false;
        }
        if (ok && (!known(plan_.root) || position_[static_cast<std::size_t>(plan_.root)] < 0)) {
          violation("root: not a participant");
          ok = false;
        }
        break;
      }
      case SteadyOperation::broadcast:
        ok = takes_part(plan_.root, "source") && ok;
        for (auto t : plan_.targets) {
          ok = takes_part(t, "targets") && ok;
          if (t == plan_.root) {
            violation("targets: the source {} is not a target of its own broadcast", id(t));
            ok = false;
          }
        }
        if (plan_.targets.empty()) {
          violation("targets: none");
          ok = false;
        }
        break;
      case Operation::multicast:
      case Operation::allreduce:
        break;  // makespan operations: never a periodic plan's (the reader refuses them)
    }
    if (plan_.period < 1) {
      violation("period: must be at least 1, got {}", plan_.period.get_str());
      ok = false;
    }
    if (plan_.operation != SteadyOperation::reduce && plan_.operation != SteadyOperation::broadcast && ok &&
        pairs_.empty()) {
      violation("targets: no (source, target) pair");
      ok = false;
    }
    return ok;
  }

  bool valid_type(const MessageType& type) const {
    if (plan_.operation == SteadyOperation::broadcast) return type.kind == MessageType::Kind::broadcast;
    if (plan_.operation == SteadyOperation::reduce) {
      return type.kind == MessageType::Kind::partial && type.first >= 0 && type.first <= type.last &&
             type.last < count_;
    }
    return type.kind == MessageType::Kind::personal && pairs_.count({type.source, type.target});
  }

  // The usable edge from -> to, with a violation when there is none.
  std::optional<std::size_t> edge(ProcessorIndex from, ProcessorIndex to, const std::string& where) {
    if (!known(from) || !known(to)) {
      violation("{}: unknown node", where);
      return std::nullopt;
    }
    auto e = view_.edge_between(from, to);
    if (!e) violation("{}: the platform has no edge {} -> {}", where, id(from), id(to));
    return e;
  }

  bool uses_sender_port(std::size_t e) const {
    return view_.cost[e] > 0 && view_.one_port[static_cast<std::size_t>(platform_.edges()[e].from)];
  }
  bool uses_receiver_port(std::size_t e) const {
    return view_.cost[e] > 0 && view_.one_port[static_cast<std::size_t>(platform_.edges()[e].to)];
  }

  void check_slots() {
    Rational total = 0;
    for (std::size_t s = 0; s < plan_.slots.size(); ++s) {
      const auto& slot = plan_.slots[s];
      if (slot.length < 0) violation("slots[{}]: negative length {}", s, to_string(slot.length));
      total += slot.length;
      std::map<ProcessorIndex, std::size_t> sending_on;
      std::map<ProcessorIndex, std::size_t> receiving_on;
      std::map<std::size_t, Rational> busy;
      for (std::size_t t = 0; t < slot.transfers.size(); ++t) {
        const auto& transfer = slot.transfers[t];
        const std::string where = fmt::format("slots[{}].transfers[{}]", s, t);
        const auto e = edge(transfer.from, transfer.to, where);
        if (!e) continue;
        if (!valid_type(transfer.type)) {
          violation("{}: message type {} is not one of this {}", where, type_name(transfer.type), to_string(plan_.operation));
          continue;
        }
        if (transfer.messages <= 0) violation("{}: messages must be positive, got {}", where, to_string(transfer.messages));
        if (!plan_.split_messages && transfer.messages.get_den() != 1) {
          violation("{}: {} messages: split_messages is false, so counts must be whole", where, to_string(transfer.messages));
        }
        if (uses_sender_port(*e)) {
          auto [it, inserted] = sending_on.try_emplace(transfer.from, *e);
          if (!inserted && it->second != *e) {
            violation("slots[{}]: {} sends on two edges at once (one-port)", s, id(transfer.from));
          }
        }
        if (uses_receiver_port(*e)) {
          auto [it, inserted] = receiving_on.try_emplace(transfer.to, *e);
          if (!inserted && it->second != *e) {
            violation("slots[{}]: {} receives on two edges at once (one-port)", s, id(transfer.to));
          }
        }
        if (uses_sender_port(*e) || uses_receiver_port(*e)) busy[*e] += transfer.messages * view_.cost[*e];
        slot_total_[{*e, transfer.type}] += transfer.messages;
        if (transfer.tree >= 0) {
          slot_tree_total_[{*e, transfer.type, transfer.tree}] += transfer.messages;
          ++labelled_transfers_;
        } else {
          ++unlabelled_transfers_;
        }
      }
      for (const auto& [e, time] : busy) {
        if (time > slot.length) {
          violation("slots[{}]: edge {} -> {} is busy {} in a slot of length {}", s, id(platform_.edges()[e].from),
                    id(platform_.edges()[e].to), to_string(time), to_string(slot.length));
        }
      }
    }
    if (total != Rational(plan_.period)) {
      violation("slots: lengths sum to {}, not to the period {}", to_string(total), plan_.period.get_str());
    }
  }

  void check_flows() {
    if (plan_.flows.empty()) {
      flow_total_ = slot_total_;
      return;
    }
    for (std::size_t f = 0; f < plan_.flows.size(); ++f) {
      const auto& flow = plan_.flows[f];
      const std::string where = fmt::format("flows[{}]", f);
      const auto e = edge(flow.from, flow.to, where);
      if (!e) continue;
      if (!valid_type(flow.type)) {
        violation("{}: message type {} is not one of this operation", where, type_name(flow.type));
        continue;
      }
      flow_total_[{*e, flow.type}] += flow.messages;
    }
    compare_totals(flow_total_, slot_total_, "flows", "the slots");
  }

  void compare_totals(const std::map<EdgeType, Rational>& expected, const std::map<EdgeType, Rational>& actual,
                      const char* expected_name, const char* actual_name) {
    std::set<EdgeType> keys;
    for (const auto& [key, value] : expected) keys.insert(key);
    for (const auto& [key, value] : actual) keys.insert(key);
    for (const auto& key : keys) {
      const auto a = expected.count(key) ? expected.at(key) : Rational(0);
      const auto b = actual.count(key) ? actual.at(key) : Rational(0);
      if (a != b) {
        const auto& e = platform_.edges()[key.first];
        violation("{} carry {} messages {} over {} -> {} per period, {} carry {}", expected_name, to_string(a),
                  type_name(key.second), id(e.from), id(e.to), actual_name, to_string(b));
      }
    }
  }

  // ---- scatter / gossip ----------------------------------------------------

  void check_personal_conservation() {
    std::map<std::pair<std::pair<ProcessorIndex, ProcessorIndex>, ProcessorIndex>, Rational> net;  // (pair, node)
    for (const auto& [key, count] : flow_total_) {
      const auto& e = platform_.edges()[key.first];
      const std::pair<ProcessorIndex, ProcessorIndex> pair{key.second.source, key.second.target};
      net[{pair, e.to}] += count;
      net[{pair, e.from}] -= count;
    }
    for (const auto& pair : pairs_) {
      for (ProcessorIndex v = 0; v < platform_.size(); ++v) {
        if (v == pair.first) continue;
        auto it = net.find({pair, v});
        const Rational value = it == net.end() ? Rational(0) : it->second;
        const Rational expected = v == pair.second ? ops() : Rational(0);
        if (value != expected) {
          if (v == pair.second) {
            violation("{} gains {} messages from {} per period, not operations_per_period = {}", id(v),
                      to_string(value), id(pair.first), plan_.operations_per_period.get_str());
          } else {
            violation("messages {} -> {} are not conserved at {}: net {} per period", id(pair.first), id(pair.second),
                      id(v), to_string(value));
          }
        }
      }
    }
  }

  void check_personal_trees() {
    if (plan_.trees.empty()) return;
    std::map<std::pair<ProcessorIndex, ProcessorIndex>, Rational> weight_of_pair;
    std::map<EdgeType, Rational> tree_total;
    for (std::size_t i = 0; i < plan_.trees.size(); ++i) {
      const auto& tree = plan_.trees[i];
      const std::string where = fmt::format("trees[{}]", i);
      if (tree.weight <= 0) violation("{}: weight must be positive", where);
      if (tree.edges.empty()) {
        violation("{}: no edges", where);
        continue;
      }
      const auto type = tree.edges.front().type;
      if (!valid_type(type)) {
        violation("{}: message type {} is not one of this operation", where, type_name(type));
        continue;
      }
      ProcessorIndex at = type.source;
      bool path = true;
      for (const auto& edge_ref : tree.edges) {
        if (edge_ref.type != type || edge_ref.from != at) path = false;
        const auto e = edge(edge_ref.from, edge_ref.to, where);
        if (!e) {
          path = false;
          break;
        }
        tree_total[{*e, type}] += tree.weight * Rational(plan_.period);
        at = edge_ref.to;
      }
      if (!path || at != type.target) violation("{}: not a path from {} to {}", where, id(type.source), id(type.target));
      weight_of_pair[{type.source, type.target}] += tree.weight;
    }
    for (const auto& pair : pairs_) {
      const Rational weight = weight_of_pair.count(pair) ? weight_of_pair[pair] : Rational(0);
      if (weight != plan_.throughput) {
        violation("trees: the paths from {} to {} weigh {}, not the throughput {}", id(pair.first), id(pair.second),
                  to_string(weight), to_string(plan_.throughput));
      }
    }
    compare_totals(tree_total, flow_total_, "the weighted trees", "the flows");
  }

  // ---- reduce --------------------------------------------------------------

  bool valid_task(ProcessorIndex node, int first, int split, int last, const std::string& where) {
    if (!known(node) || position_[static_cast<std::size_t>(node)] < 0) {
      violation("{}: tasks run on participants only", where);
      return false;
    }
    if (!(0 <= first && first <= split && split < last && last < count_)) {
      violation("{}: [{},{},{}] is not a task (needs 0 <= k <= l < m < {})", where, first, split, last, count_);
      return false;
    }
    return true;
  }

  void check_reduce_conservation() {
    std::map<std::tuple<ProcessorIndex, int, int>, Rational> balance;  // produced - used, per period
    for (const auto& [key, count] : flow_total_) {
      const auto& e = platform_.edges()[key.first];
      balance[{e.to, key.second.first, key.second.last}] += count;
      balance[{e.from, key.second.first, key.second.last}] -= count;
    }
    std::map<ProcessorIndex, Rational> compute_time;
    for (std::size_t c = 0; c < plan_.computations.size(); ++c) {
      const auto& task = plan_.computations[c];
      const std::string where = fmt::format("computations[{}]", c);
      if (!valid_task(task.node, task.first, task.split, task.last, where)) continue;
      if (task.count <= 0) violation("{}: count must be positive", where);
      if (!plan_.split_messages && task.count.get_den() != 1) violation("{}: count must be whole", where);
      balance[{task.node, task.first, task.last}] += task.count;
      balance[{task.node, task.first, task.split}] -= task.count;
      balance[{task.node, task.split + 1, task.last}] -= task.count;
      task_total_[{task.node, task.first, task.split, task.last}] += task.count;
      if (const auto& time = view_.compute_time[static_cast<std::size_t>(task.node)]) compute_time[task.node] += task.count * *time;
      if (task.tree >= 0) task_tree_total_[{task.node, task.first, task.split, task.last, task.tree}] += task.count;
    }
    for (const auto& [node, time] : compute_time) {
      if (time > Rational(plan_.period)) {
        violation("{} computes {} per period of {} (tasks take 1/speed each)", id(node), to_string(time),
                  plan_.period.get_str());
      }
    }
    for (int r = 0; r < count_; ++r) balance.try_emplace({plan_.participants[static_cast<std::size_t>(r)], r, r}, Rational(0));
    balance.try_emplace({plan_.root, 0, count_ - 1}, Rational(0));
    for (const auto& [key, value] : balance) {
      const auto [node, first, last] = key;
      Rational expected = 0;
      std::string role = "is not conserved";
      if (first == last && position_[static_cast<std::size_t>(node)] == first) {
        expected = -ops();
        role = "(its own value) must leave it operations_per_period times";
      } else if (node == plan_.root && first == 0 && last == count_ - 1) {
        expected = ops();
        role = "(the result) must arrive operations_per_period times";
      }
      if (value != expected) {
        violation("v[{},{}] on {} {}: net {} per period, expected {}", first, last, id(node), role, to_string(value),
                  to_string(expected));
      }
    }
  }

  void check_reduce_trees() {
    if (plan_.trees.empty()) {
      violation("trees: a reduce plan needs its reduction trees");
      return;
    }
    Rational total_weight = 0;
    std::map<EdgeType, Rational> tree_edges;
    std::map<TaskKey, Rational> tree_tasks;
    for (std::size_t i = 0; i < plan_.trees.size(); ++i) {
      const auto& tree = plan_.trees[i];
      const std::string where = fmt::format("trees[{}]", i);
      if (tree.weight <= 0) violation("{}: weight must be positive", where);
      total_weight += tree.weight;
      const Rational per_period = tree.weight * Rational(plan_.period);
      // Producers of (type, node) and what each task needs.
      using Value = std::tuple<int, int, ProcessorIndex>;  // first, last, node
      std::map<Value, std::vector<Value>> producer_needs;
      std::map<Value, int> produced;
      bool ok = true;
      for (const auto& edge_ref : tree.edges) {
        const auto e = edge(edge_ref.from, edge_ref.to, where);
        if (!e || !valid_type(edge_ref.type)) {
          if (e) violation("{}: message type {} is not a partial result", where, type_name(edge_ref.type));
          ok = false;
          continue;
        }
        const Value out{edge_ref.type.first, edge_ref.type.last, edge_ref.to};
        ++produced[out];
        producer_needs[out] = {{edge_ref.type.first, edge_ref.type.last, edge_ref.from}};
        tree_edges[{*e, edge_ref.type}] += per_period;
        expected_tree_edges_[{*e, edge_ref.type, static_cast<int>(i)}] += per_period;
      }
      for (const auto& task : tree.computations) {
        if (!valid_task(task.node, task.first, task.split, task.last, where)) {
          ok = false;
          continue;
        }
        const Value out{task.first, task.last, task.node};
        ++produced[out];
        producer_needs[out] = {{task.first, task.split, task.node}, {task.split + 1, task.last, task.node}};
        tree_tasks[{task.node, task.first, task.split, task.last}] += per_period;
        expected_tree_tasks_[{task.node, task.first, task.split, task.last, static_cast<int>(i)}] += per_period;
      }
      if (!ok) continue;
      for (const auto& [value, times] : produced) {
        if (times > 1) {
          violation("{}: v[{},{}] on {} is produced {} times", where, std::get<0>(value), std::get<1>(value),
                    id(std::get<2>(value)), times);
          ok = false;
        }
      }
      if (!ok) continue;
      // Walk from the result on the root; every value needed must be
      // produced in the tree or be a participant's own value (used once).
      std::vector<Value> stack{{0, count_ - 1, plan_.root}};
      std::set<Value> reached;
      std::vector<int> leaf_uses(static_cast<std::size_t>(count_), 0);
      while (!stack.empty() && ok) {
        const Value value = stack.back();
        stack.pop_back();
        const auto [first, last, node] = value;
        if (first == last && position_[static_cast<std::size_t>(node)] == first) {
          ++leaf_uses[static_cast<std::size_t>(first)];
          continue;
        }
        if (!reached.insert(value).second) {
          violation("{}: v[{},{}] on {} is needed twice", where, first, last, id(node));
          ok = false;
          break;
        }
        auto it = producer_needs.find(value);
        if (it == producer_needs.end()) {
          violation("{}: v[{},{}] is needed on {} but nothing in the tree produces it", where, first, last, id(node));
          ok = false;
          break;
        }
        for (const auto& need : it->second) stack.push_back(need);
      }
      if (!ok) continue;
      if (reached.size() != producer_needs.size()) violation("{}: some tasks do not lead to the result on the root", where);
      for (int r = 0; r < count_; ++r) {
        if (leaf_uses[static_cast<std::size_t>(r)] != 1) {
          violation("{}: the value of {} is used {} times, not once", where,
                    id(plan_.participants[static_cast<std::size_t>(r)]), leaf_uses[static_cast<std::size_t>(r)]);
        }
      }
    }
    if (total_weight != plan_.throughput) {
      violation("trees: weights sum to {}, not to the throughput {}", to_string(total_weight), to_string(plan_.throughput));
    }
    compare_totals(tree_edges, flow_total_, "the weighted trees", "the flows");
    std::set<TaskKey> keys;
    for (const auto& [key, value] : tree_tasks) keys.insert(key);
    for (const auto& [key, value] : task_total_) keys.insert(key);
    for (const auto& key : keys) {
      const auto a = tree_tasks.count(key) ? tree_tasks[key] : Rational(0);
      const auto b = task_total_.count(key) ? task_total_[key] : Rational(0);
      if (a != b) {
        violation("the weighted trees run task [{},{},{}] on {} {} times per period, the computations {}",
                  std::get<1>(key), std::get<2>(key), std::get<3>(key), id(std::get<0>(key)), to_string(a), to_string(b));
      }
    }
    if (labelled_transfers_ > 0) {
      if (unlabelled_transfers_ > 0) violation("slots: some transfers name their tree and some do not");
      if (expected_tree_edges_ != slot_tree_total_) {
        violation("slots: the transfers of some tree do not add up to its weight x period on its edges");
      }
    }
    if (!task_tree_total_.empty() && expected_tree_tasks_ != task_tree_total_) {
      violation("computations: the tasks of some tree do not add up to its weight x period");
    }
  }

  // ---- broadcast: weighted arborescences --------------------------------------

  // Pipelined broadcast trees: each an arborescence of platform edges from the
  // source reaching every participant (verify_broadcast_tree), weights
  // positive and summing to the throughput, the weighted trees summing to the
  // flows edge by edge, and, where transfers name their tree, each tree's
  // slices in the slots equal to weight x period on each of its edges. With
  // the slot checks (one-port matchings), that is a one-port schedule
  // carrying every tree; store and forward makes it causal from one period
  // to the next.
  void check_broadcast_trees() {
    if (plan_.trees.empty()) {
      violation("trees: a broadcast plan needs its trees");
      return;
    }
    TreeCosts costs;
    costs.edge_time = platform_.edge_costs(message_size_);
    costs.send_time.assign(static_cast<std::size_t>(platform_.size()), 0.0);
    costs.unlimited_ports.assign(static_cast<std::size_t>(platform_.size()), 0);
    for (ProcessorIndex v = 0; v < platform_.size(); ++v) {
      costs.unlimited_ports[static_cast<std::size_t>(v)] = !view_.one_port[static_cast<std::size_t>(v)];
    }
    Rational total_weight = 0;
    std::map<EdgeType, Rational> tree_edges;
    for (std::size_t i = 0; i < plan_.trees.size(); ++i) {
      const auto& weighted = plan_.trees[i];
      const std::string where = fmt::format("trees[{}]", i);
      if (weighted.weight <= 0) violation("{}: weight must be positive", where);
      total_weight += weighted.weight;
      const Rational per_period = weighted.weight * Rational(plan_.period);
      BroadcastTree tree;
      tree.source = plan_.root;
      bool ok = true;
      for (const auto& edge_ref : weighted.edges) {
        const auto e = edge(edge_ref.from, edge_ref.to, where);
        if (!e) {
          ok = false;
          continue;
        }
        tree.edges.push_back({edge_ref.from, edge_ref.to, {*e}});
        tree_edges[{*e, MessageType::broadcast()}] += per_period;
        expected_tree_edges_[{*e, MessageType::broadcast(), static_cast<int>(i)}] += per_period;
      }
      if (!ok) continue;
      auto report = verify_broadcast_tree(platform_, tree, costs, 0);
      for (const auto& line : report.violations) violation("{}: {}", where, line);
    }
    if (total_weight != plan_.throughput) {
      violation("trees: the weights sum to {}, not to the throughput {}", to_string(total_weight),
                to_string(plan_.throughput));
    }
    compare_totals(tree_edges, flow_total_, "the weighted trees", "the flows");
    if (labelled_transfers_ > 0) {
      if (unlabelled_transfers_ > 0) violation("slots: some transfers name their tree and some do not");
      if (expected_tree_edges_ != slot_tree_total_) {
        violation("slots: the transfers of some tree do not add up to its weight x period on its edges");
      }
    } else if (plan_.trees.size() > 1) {
      violation("slots: with several trees every transfer must name its tree");
    }
  }

  // The SSB certificate (formulation "ssb-broadcast", Beaumont, Marchal,
  // Robert 2004 eq. 2), re-derived from the platform by ssb_certificate.h:
  // its duals, and the plan's rates (flows / period) carrying the bound to
  // every target by exact max-flow.
  void check_ssb_certificate() {
    std::vector<Rational> rates(platform_.edges().size(), Rational(0));
    for (const auto& [key, messages] : flow_total_) rates[key.first] += messages / Rational(plan_.period);
    // The doubles the costs came from (view_.cost holds their exact decimals;
    // converting back through to_double may move the last bit).
    const std::vector<double> times = platform_.edge_costs(message_size_);
    // The plan's trees may fall short of the bound only under a period limit.
    if (plan_.throughput != plan_.throughput_bound) return;
    auto failure = hetcoll::check_ssb_certificate(platform_, plan_.root, times, plan_.targets, plan_.throughput_bound,
                                                  rates, plan_.certificate);
    if (!failure.empty()) {
      violation("certificate: {}", failure);
      return;
    }
    report_.certificate_checked = true;
  }

  // ---- claims and certificate ----------------------------------------------

  void check_claims() {
    if (plan_.period < 1) return;
    if (Rational(plan_.operations_per_period) != plan_.throughput * Rational(plan_.period)) {
      violation("operations_per_period {} differs from throughput x period = {}", plan_.operations_per_period.get_str(),
                to_string(plan_.throughput * Rational(plan_.period)));
    }
    if (plan_.throughput <= 0) violation("throughput: must be positive, got {}", to_string(plan_.throughput));
    if (plan_.throughput > plan_.throughput_bound) {
      violation("throughput {} exceeds the claimed bound {}", readable(plan_.throughput), readable(plan_.throughput_bound));
    }
    for (const auto& contradiction : plan_.stated_contradictions) violation("{}", contradiction);
    if (plan_.period_limit && plan_.period > *plan_.period_limit) {
      violation("period {} exceeds the period_limit {} the plan claims to keep", plan_.period.get_str(),
                plan_.period_limit->get_str());
    }
    if (!plan_.period_limit && plan_.throughput != plan_.throughput_bound) {
      violation("throughput {} differs from the bound {} although no period limit applied", readable(plan_.throughput),
                readable(plan_.throughput_bound));
    }
    // An optimality claim needs the proof: a certificate of the bound and
    // the throughput equal to it (no certificate, no optimal claim).
    if (plan_.claimed_optimal && *plan_.claimed_optimal != plan_.optimal()) {
      violation("optimal: the plan claims {}, but {}", *plan_.claimed_optimal ? "true" : "false",
                plan_.certificate.empty() ? "it carries no certificate of its bound"
                : plan_.throughput != plan_.throughput_bound
                    ? fmt::format("its throughput {} is below its proven bound {}", readable(plan_.throughput),
                                  readable(plan_.throughput_bound))
                    : std::string("its certificate proves its throughput optimal"));
    }
  }

  std::optional<ProcessorIndex> node_key(const std::string& key) const {
    auto v = platform_.find(key);
    if (v && platform_.id(*v) == key) return v;
    return std::nullopt;
  }

  static std::optional<int> int_key(const std::string& key) {
    int value = 0;
    auto [end, error] = std::from_chars(key.data(), key.data() + key.size(), value);
    if (error != std::errc() || end != key.data() + key.size()) return std::nullopt;
    return value;
  }

  void check_certificate() {
    const auto& certificate = plan_.certificate;
    if (certificate.empty()) return;
    if (certificate.bound != plan_.throughput_bound) {
      violation("certificate: bound {} differs from throughput_bound {}", to_string(certificate.bound),
                to_string(plan_.throughput_bound));
    }
    const auto n = static_cast<std::size_t>(platform_.size());
    send_port_.assign(n, Rational(0));
    receive_port_.assign(n, Rational(0));
    compute_.assign(n, Rational(0));
    Rational bound = 0;
    bool ok = true;
    const auto bad = [&](std::size_t i, const std::string& what) {
      violation("certificate.duals[{}]: {}", i, what);
      ok = false;
    };
    if (plan_.operation == SteadyOperation::broadcast || certificate.formulation == "ssb-broadcast") {
      if (plan_.operation != SteadyOperation::broadcast || certificate.formulation != "ssb-broadcast") {
        violation("certificate: formulation \"{}\" does not prove a {} bound", certificate.formulation,
                  to_string(plan_.operation));
        return;
      }
      check_ssb_certificate();
      return;
    }
    const bool per_type = certificate.formulation == "personal-per-type";
    const bool by_source = certificate.formulation == "personal-by-source";
    const bool reduce = certificate.formulation == "reduce";
    if ((per_type || by_source) == (plan_.operation == SteadyOperation::reduce) ||
        (!per_type && !by_source && !reduce)) {
      violation("certificate: formulation \"{}\" does not prove a {} bound", certificate.formulation,
                to_string(plan_.operation));
      return;
    }
    for (std::size_t i = 0; i < certificate.duals.size(); ++i) {
      const auto& entry = certificate.duals[i];
      const auto& keys = entry.row.keys;
      const auto& value = entry.value;
      if (entry.row.kind == "send_port" || entry.row.kind == "receive_port" || entry.row.kind == "compute") {
        const auto v = keys.size() == 1 ? node_key(keys[0]) : std::nullopt;
        if (!v) {
          bad(i, "needs one node id");
          continue;
        }
        if (value < 0) bad(i, entry.row.kind + " duals must be >= 0");
        if (entry.row.kind == "compute") {
          if (!reduce || position_[static_cast<std::size_t>(*v)] < 0 || !view_.compute_time[static_cast<std::size_t>(*v)]) {
            bad(i, "no compute row for " + keys[0]);
            continue;
          }
          compute_[static_cast<std::size_t>(*v)] += value;
        } else {
          if (!view_.one_port[static_cast<std::size_t>(*v)]) {
            bad(i, keys[0] + " has unlimited ports: it has no port row");
            continue;
          }
          (entry.row.kind == "send_port" ? send_port_ : receive_port_)[static_cast<std::size_t>(*v)] += value;
        }
        bound += value;
      } else if (entry.row.kind == "conservation" && per_type && keys.size() == 3) {
        const auto v = node_key(keys[0]);
        const auto s = node_key(keys[1]);
        const auto t = node_key(keys[2]);
        if (!v || !s || !t || !pairs_.count({*s, *t}) || *v == *s || *v == *t) {
          bad(i, "not a conservation row of this plan");
          continue;
        }
        pair_potential_[{*s, *t}][*v] += value;
      } else if (entry.row.kind == "throughput" && per_type && keys.size() == 2) {
        const auto s = node_key(keys[0]);
        const auto t = node_key(keys[1]);
        if (!s || !t || !pairs_.count({*s, *t})) {
          bad(i, "not a throughput row of this plan");
          continue;
        }
        pair_throughput_[{*s, *t}] += value;
      } else if (entry.row.kind == "conservation" && by_source && keys.size() == 2) {
        const auto v = node_key(keys[0]);
        const auto s = node_key(keys[1]);
        if (!v || !s || !is_source(*s) || *v == *s) {
          bad(i, "not a conservation row of this plan");
          continue;
        }
        source_potential_[*s][*v] += value;
      } else if (entry.row.kind == "conservation" && reduce && keys.size() == 3) {
        const auto v = node_key(keys[0]);
        const auto first = int_key(keys[1]);
        const auto last = int_key(keys[2]);
        if (!v || !first || !last || *first < 0 || *first > *last || *last >= count_ ||
            exempt(*v, *first, *last)) {
          bad(i, "not a conservation row of this plan");
          continue;
        }
        value_potential_[{*v, *first, *last}] += value;
      } else if (entry.row.kind == "throughput" && reduce && keys.empty()) {
        reduce_throughput_ += value;
      } else {
        bad(i, "unknown row \"" + entry.row.kind + "\" for formulation " + certificate.formulation);
      }
    }
    if (!ok) return;
    if (bound != certificate.bound) {
      violation("certificate: the duals of the rows with right-hand side 1 sum to {}, not to the bound {}",
                to_string(bound), to_string(certificate.bound));
      return;
    }
    const std::size_t before = report_.violation_count;
    if (per_type) check_per_type_duals();
    if (by_source) check_by_source_duals();
    if (reduce) check_reduce_duals();
    report_.certificate_checked = report_.violation_count == before;
  }

  bool is_source(ProcessorIndex s) {
    if (pair_sources_.empty()) {
      for (const auto& pair : pairs_) pair_sources_.insert(pair.first);
    }
    return pair_sources_.count(s) > 0;
  }

  bool exempt(ProcessorIndex v, int first, int last) const {
    if (first == last && position_[static_cast<std::size_t>(v)] == first) return true;
    return v == plan_.root && first == 0 && last == count_ - 1;
  }

  // c(e) x (send-port dual of its tail + receive-port dual of its head),
  // counting only ports the edge uses.
  Rational port_price(std::size_t e) const {
    Rational price = 0;
    const auto& edge_ref = platform_.edges()[e];
    if (uses_sender_port(e)) price += view_.cost[e] * send_port_[static_cast<std::size_t>(edge_ref.from)];
    if (uses_receiver_port(e)) price += view_.cost[e] * receive_port_[static_cast<std::size_t>(edge_ref.to)];
    return price;
  }

  static Rational lookup(const std::map<ProcessorIndex, Rational>& potentials, ProcessorIndex v) {
    auto it = potentials.find(v);
    return it == potentials.end() ? Rational(0) : it->second;
  }

  void reduced_cost_violation(const std::string& column, const Rational& value, const Rational& needed) {
    violation("certificate: dual constraint of {} fails: {} < {}", column, to_string(value), to_string(needed));
  }

  void check_per_type_duals() {
    const auto& edges = platform_.edges();
    Rational throughput_sum = 0;
    for (const auto& pair : pairs_) {
      const auto [s, t] = pair;
      const auto& potential = pair_potential_[pair];
      const Rational lambda = pair_throughput_.count(pair) ? pair_throughput_[pair] : Rational(0);
      throughput_sum += lambda;
      for (std::size_t e = 0; e < edges.size(); ++e) {
        if (!view_.usable[e] || edges[e].to == s || edges[e].from == t) continue;
        Rational reduced = port_price(e);
        if (edges[e].to == t) {
          reduced += lambda;
        } else {
          reduced += lookup(potential, edges[e].to);
        }
        if (edges[e].from != s) reduced -= lookup(potential, edges[e].from);
        if (reduced < 0) {
          reduced_cost_violation(fmt::format("send({} -> {}, {} -> {})", id(edges[e].from), id(edges[e].to), id(s), id(t)),
                                 reduced, Rational(0));
          return;
        }
      }
    }
    // Column TP: -(sum of the throughput duals) >= 1.
    if (-throughput_sum < 1) reduced_cost_violation("TP", -throughput_sum, Rational(1));
  }

  void check_by_source_duals() {
    const auto& edges = platform_.edges();
    Rational demand_sum = 0;
    std::map<ProcessorIndex, std::vector<ProcessorIndex>> targets_of;
    for (const auto& pair : pairs_) targets_of[pair.first].push_back(pair.second);
    std::vector<Rational> price(edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (view_.usable[e]) price[e] = port_price(e);
    }
    std::vector<Rational> potential_of(static_cast<std::size_t>(platform_.size()));
    for (const auto& [s, targets] : targets_of) {
      // This source's potentials as a dense vector (0 where absent).
      for (auto& value : potential_of) value = 0;
      for (const auto& [v, value] : source_potential_[s]) potential_of[static_cast<std::size_t>(v)] = value;
      for (auto t : targets) demand_sum += potential_of[static_cast<std::size_t>(t)];
      for (std::size_t e = 0; e < edges.size(); ++e) {
        if (!view_.usable[e] || edges[e].to == s) continue;
        Rational reduced = price[e] + potential_of[static_cast<std::size_t>(edges[e].to)];
        if (edges[e].from != s) reduced -= potential_of[static_cast<std::size_t>(edges[e].from)];
        if (reduced < 0) {
          reduced_cost_violation(fmt::format("send({} -> {}, from {})", id(edges[e].from), id(edges[e].to), id(s)),
                                 reduced, Rational(0));
          return;
        }
      }
    }
    // Column TP appears with -1 in the conservation row of every target.
    if (-demand_sum < 1) reduced_cost_violation("TP", -demand_sum, Rational(1));
  }

  // The dual of the balance of v[first,last] on v: the throughput row for
  // the result on the root, 0 for exempt values, the conservation row else.
  Rational value_price(ProcessorIndex v, int first, int last) const {
    if (v == plan_.root && first == 0 && last == count_ - 1) return reduce_throughput_;
    if (exempt(v, first, last)) return 0;
    auto it = value_potential_.find({v, first, last});
    return it == value_potential_.end() ? Rational(0) : it->second;
  }

  void check_reduce_duals() {
    const auto& edges = platform_.edges();
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (!view_.usable[e]) continue;
      const auto from = edges[e].from;
      const auto to = edges[e].to;
      const Rational price = port_price(e);
      for (int first = 0; first < count_; ++first) {
        for (int last = first; last < count_; ++last) {
          if (first == last && position_[static_cast<std::size_t>(to)] == first) continue;
          if (from == plan_.root && first == 0 && last == count_ - 1) continue;
          const Rational reduced = price + value_price(to, first, last) - value_price(from, first, last);
          if (reduced < 0) {
            reduced_cost_violation(fmt::format("send({} -> {}, v[{},{}])", id(from), id(to), first, last), reduced,
                                   Rational(0));
            return;
          }
        }
      }
    }
    for (auto p : plan_.participants) {
      const auto& time = view_.compute_time[static_cast<std::size_t>(p)];
      const Rational compute_price = time ? *time * compute_[static_cast<std::size_t>(p)] : Rational(0);
      for (int first = 0; first < count_; ++first) {
        for (int last = first + 1; last < count_; ++last) {
          const Rational produced = value_price(p, first, last);
          for (int split = first; split < last; ++split) {
            const Rational reduced =
                compute_price + produced - value_price(p, first, split) - value_price(p, split + 1, last);
            if (reduced < 0) {
              reduced_cost_violation(fmt::format("cons({}, T[{},{},{}])", id(p), first, split, last), reduced,
                                     Rational(0));
              return;
            }
          }
        }
      }
    }
    if (-reduce_throughput_ < 1) reduced_cost_violation("TP", -reduce_throughput_, Rational(1));
  }

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

}  // namespace

PeriodicVerifyReport verify_periodic_plan(const Platform& platform, const PeriodicPlan& plan,
                                          std::optional<double> message_size) {
  return PeriodicChecker(platform, plan, message_size).run();
}

}  // namespace hetcoll
