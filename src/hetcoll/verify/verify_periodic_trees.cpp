// Periodic plans: conservation and trees, per operation (scatter/gossip,
// reduce, broadcast).
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
#include "hetcoll/verify/verify_periodic_internal.h"

namespace hetcoll::periodic_check {

void PeriodicChecker::check_personal_conservation() {
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

void PeriodicChecker::check_personal_trees() {
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

bool PeriodicChecker::valid_task(ProcessorIndex node, int first, int split, int last, const std::string& where) {
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

void PeriodicChecker::check_reduce_conservation() {
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

void PeriodicChecker::check_reduce_trees() {
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

// Pipelined broadcast trees: each an arborescence of platform edges from the
// source reaching every participant (verify_broadcast_tree), weights
// positive and summing to the throughput, the weighted trees summing to the
// flows edge by edge, and, where transfers name their tree, each tree's
// slices in the slots equal to weight x period on each of its edges. With
// the slot checks (one-port matchings), that is a one-port schedule
// carrying every tree; store and forward makes it causal from one period
// to the next.
void PeriodicChecker::check_broadcast_trees() {
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
void PeriodicChecker::check_ssb_certificate() {
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

}  // namespace hetcoll::periodic_check
