#include "hetcoll/steady/personal_path_generation.h"
#include "hetcoll/core/elapsed.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <map>
#include <queue>
#include <set>

namespace hetcoll {

namespace {

constexpr int kExactRounds = 20;
constexpr std::size_t kNoEdge = static_cast<std::size_t>(-1);

// One routing of a source: edge -> how many of its targets' paths use it.
using Routing = std::vector<std::pair<std::size_t, long>>;

class RoutingGeneration {
 public:
  RoutingGeneration(const SteadyPlatform& platform, const PersonalProblem& problem)
      : platform_(platform), graph_(*platform.platform), problem_(problem) {
    const auto n = static_cast<std::size_t>(graph_.size());
    is_target_.assign(problem.sources.size(), std::vector<char>(n, 0));
    for (std::size_t k = 0; k < problem.sources.size(); ++k) {
      for (auto t : problem.targets) {
        if (t != problem.sources[k]) is_target_[k][static_cast<std::size_t>(t)] = 1;
      }
    }
    cost_.resize(graph_.edges().size());
    for (std::size_t e = 0; e < cost_.size(); ++e) cost_[e] = platform.cost[e].get_d();
  }

  lp::Model& master() { return master_; }
  int throughput_column() const { return throughput_; }
  const PortRows& ports() const { return ports_; }

  void build_master() {
    throughput_ = master_.add_column(1, "TP");
    ports_ = add_port_rows(master_, platform_);
    for (auto s : problem_.sources) {
      const int row = master_.add_row(lp::RowSense::less_equal, 0, {"source", {graph_.id(s)}});
      master_.add_entry(row, throughput_, 1);
      source_row_.push_back(row);
    }
    // A first routing per source: shortest paths by edge cost.
    std::vector<double> length(cost_);
    for (std::size_t k = 0; k < problem_.sources.size(); ++k) add_routing(k, shortest_tree(k, length).routing);
  }

  // Edge lengths c(e) (u_tail + w_head) from row duals (doubles, clamped at 0).
  std::vector<double> lengths(const std::vector<double>& duals) const {
    std::vector<double> length(cost_.size(), 0.0);
    for (std::size_t e = 0; e < cost_.size(); ++e) {
      if (!platform_.usable[e] || cost_[e] == 0) continue;
      const auto& edge = graph_.edges()[e];
      double price = 0;
      if (int row = ports_.send_row[static_cast<std::size_t>(edge.from)]; row >= 0) price += duals[static_cast<std::size_t>(row)];
      if (int row = ports_.receive_row[static_cast<std::size_t>(edge.to)]; row >= 0) price += duals[static_cast<std::size_t>(row)];
      length[e] = cost_[e] * std::max(0.0, price);
    }
    return length;
  }

  // The floating pricing round: a routing for every source whose shortest
  // tree costs less than its dual.
  void price(lp::Model& model, const std::vector<double>& duals) {
    (void)model;
    const auto length = lengths(duals);
    for (std::size_t k = 0; k < problem_.sources.size(); ++k) {
      const double sigma = duals[static_cast<std::size_t>(source_row_[k])];
      auto tree = shortest_tree(k, length);
      if (tree.cost < sigma - 1e-9 * std::max(1.0, sigma)) add_routing(k, std::move(tree.routing));
    }
  }

  struct Tree {
    Routing routing;
    double cost = 0;
    std::vector<std::size_t> order;  // nodes in settle order
    std::vector<std::size_t> parent;  // per node: the tree edge into it, kNoEdge at the root / unreached
  };

  // Dijkstra from source k (edges into the source and unusable edges are
  // left out), and its routing.
  Tree shortest_tree(std::size_t k, const std::vector<double>& length) const {
    const auto n = static_cast<std::size_t>(graph_.size());
    const auto s = problem_.sources[k];
    Tree tree;
    tree.parent.assign(n, kNoEdge);
    std::vector<double> distance(n, std::numeric_limits<double>::infinity());
    std::vector<char> done(n, 0);
    using Item = std::pair<double, std::size_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    distance[static_cast<std::size_t>(s)] = 0;
    queue.push({0.0, static_cast<std::size_t>(s)});
    while (!queue.empty()) {
      const auto [d, v] = queue.top();
      queue.pop();
      if (done[v]) continue;
      done[v] = 1;
      tree.order.push_back(v);
      for (auto e : graph_.out_edges(static_cast<ProcessorIndex>(v))) {
        const auto to = static_cast<std::size_t>(graph_.edges()[e].to);
        if (!platform_.usable[e] || to == static_cast<std::size_t>(s) || done[to]) continue;
        if (d + length[e] < distance[to]) {
          distance[to] = d + length[e];
          tree.parent[to] = e;
          queue.push({distance[to], to});
        }
      }
    }
    tree.routing = routing_of(k, tree);
    for (std::size_t v = 0; v < n; ++v) {
      if (is_target_[k][v]) tree.cost += distance[v];
    }
    return tree;
  }

  // How many targets' tree paths use each edge (children before parents).
  Routing routing_of(std::size_t k, const Tree& tree) const {
    const auto n = static_cast<std::size_t>(graph_.size());
    std::vector<long> below(n, 0);
    for (std::size_t v = 0; v < n; ++v) below[v] = is_target_[k][v];
    std::map<std::size_t, long> load;
    for (auto it = tree.order.rbegin(); it != tree.order.rend(); ++it) {
      const auto e = tree.parent[*it];
      if (e == kNoEdge || below[*it] == 0) continue;
      load[e] += below[*it];
      below[static_cast<std::size_t>(graph_.edges()[e].from)] += below[*it];
    }
    return Routing(load.begin(), load.end());
  }

  // Adds a master column for the routing (false when it is already there).
  bool add_routing(std::size_t k, Routing routing) {
    if (routing.empty() || !known_.insert({k, routing}).second) return false;
    const int column = master_.add_column(0, fmt_column(k));
    // Entries row by row in increasing order (keeps the model normalised).
    std::map<int, Rational> entries;
    entries[source_row_[k]] -= 1;
    for (const auto& [e, count] : routing) {
      const Rational& c = platform_.cost[e];
      if (c == 0) continue;
      const auto& edge = graph_.edges()[e];
      if (int row = ports_.send_row[static_cast<std::size_t>(edge.from)]; row >= 0) entries[row] += c * count;
      if (int row = ports_.receive_row[static_cast<std::size_t>(edge.to)]; row >= 0) entries[row] += c * count;
    }
    for (const auto& [row, value] : entries) master_.add_entry(row, column, value);
    source_of_column_.push_back(k);
    routings_.push_back(std::move(routing));
    return true;
  }

  std::string fmt_column(std::size_t k) const {
    return "routing" + std::to_string(routings_.size()) + ":" + graph_.id(problem_.sources[k]);
  }

  const std::vector<Routing>& routings() const { return routings_; }
  const std::vector<std::size_t>& source_of_column() const { return source_of_column_; }  // per routing
  const std::vector<int>& source_rows() const { return source_row_; }
  const std::vector<char>& targets_of(std::size_t k) const { return is_target_[k]; }

 private:
  const SteadyPlatform& platform_;
  const Platform& graph_;
  const PersonalProblem& problem_;
  std::vector<std::vector<char>> is_target_;  // per source, per node
  std::vector<double> cost_;
  lp::Model master_;
  int throughput_ = -1;
  PortRows ports_;
  std::vector<int> source_row_;
  std::set<std::pair<std::size_t, Routing>> known_;
  std::vector<Routing> routings_;            // column 1 + i is routing i
  std::vector<std::size_t> source_of_column_;
};

// Exact shortest distances from source k in integers (lengths L / D), from
// the floating tree, corrected by label-correcting until nothing relaxes.
// Unreached nodes get the largest distance. Returns the distances and the
// final tree's parents.
std::vector<BigInteger> exact_distances(const SteadyPlatform& platform, ProcessorIndex source,
                                        const std::vector<BigInteger>& length, std::vector<std::size_t>& parent,
                                        const std::vector<std::size_t>& order) {
  const auto& graph = *platform.platform;
  const auto n = static_cast<std::size_t>(graph.size());
  std::vector<BigInteger> distance(n);
  std::vector<char> reached(n, 0);
  reached[static_cast<std::size_t>(source)] = 1;
  for (auto v : order) {
    const auto e = parent[v];
    if (e == kNoEdge) continue;
    const auto from = static_cast<std::size_t>(graph.edges()[e].from);
    distance[v] = distance[from] + length[e];
    reached[v] = 1;
  }
  std::deque<std::size_t> queue(order.begin(), order.end());
  std::vector<char> queued(n, 0);
  for (auto v : order) queued[v] = 1;
  BigInteger candidate;
  while (!queue.empty()) {
    const auto v = queue.front();
    queue.pop_front();
    queued[v] = 0;
    for (auto e : graph.out_edges(static_cast<ProcessorIndex>(v))) {
      const auto to = static_cast<std::size_t>(graph.edges()[e].to);
      if (!platform.usable[e] || to == static_cast<std::size_t>(source)) continue;
      candidate = distance[v] + length[e];
      if (!reached[to] || candidate < distance[to]) {
        distance[to] = candidate;
        reached[to] = 1;
        parent[to] = e;
        if (!queued[to]) {
          queued[to] = 1;
          queue.push_back(to);
        }
      }
    }
  }
  BigInteger largest = 0;
  for (std::size_t v = 0; v < n; ++v) {
    if (reached[v] && distance[v] > largest) largest = distance[v];
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (!reached[v]) distance[v] = largest;
  }
  return distance;
}

// The generation for a problem whose every source has a target other than itself.
std::optional<PersonalLpResult> solve_by_routings(const SteadyPlatform& platform, const PersonalProblem& problem) {
  const auto start = std::chrono::steady_clock::now();
  const auto& graph = *platform.platform;
  const auto& edges = graph.edges();
  const auto n = static_cast<std::size_t>(graph.size());
  RoutingGeneration generation(platform, problem);
  generation.build_master();
  lp::Model& master = generation.master();
  const lp::PricingOracle oracle = [&](lp::Model& model, const std::vector<double>& duals) {
    generation.price(model, duals);
  };

  PersonalLpResult result;
  result.formulation = PersonalFormulation::by_source;
  double floating_seconds = 0;
  double exact_seconds = 0;
  int rounds = 0;
  for (int exact_round = 0; exact_round <= kExactRounds; ++exact_round) {
    auto solution = lp::solve_with_pricing(master, oracle);
    floating_seconds += solution.floating_seconds;
    exact_seconds += solution.exact_seconds;
    rounds += solution.generation_rounds;
    if (solution.status != lp::SolveStatus::optimal) return std::nullopt;
    const auto exact_start = std::chrono::steady_clock::now();

    // Exact lengths over one common denominator D.
    const auto& ports = generation.ports();
    std::vector<Rational> length(edges.size(), Rational(0));
    for (std::size_t e = 0; e < edges.size(); ++e) {
      if (!platform.usable[e] || platform.cost[e] == 0) continue;
      Rational price = 0;
      if (int row = ports.send_row[static_cast<std::size_t>(edges[e].from)]; row >= 0) price += solution.dual[static_cast<std::size_t>(row)];
      if (int row = ports.receive_row[static_cast<std::size_t>(edges[e].to)]; row >= 0) price += solution.dual[static_cast<std::size_t>(row)];
      length[e] = platform.cost[e] * price;
    }
    BigInteger denominator = 1;
    for (const auto& l : length) {
      if (l.get_den() != 1 && !mpz_divisible_p(denominator.get_mpz_t(), l.get_den_mpz_t())) {
        denominator = lcm(denominator, l.get_den());
      }
    }
    std::vector<BigInteger> scaled(edges.size());
    std::vector<double> floating(edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
      scaled[e] = length[e].get_num() * (denominator / length[e].get_den());
      floating[e] = length[e].get_d();
    }

    // Exact pricing: every source's cheapest routing against its dual.
    std::vector<std::vector<BigInteger>> distance(problem.sources.size());
    std::vector<std::size_t> improving;
    std::vector<Routing> improving_routing;
    for (std::size_t k = 0; k < problem.sources.size(); ++k) {
      auto tree = generation.shortest_tree(k, floating);
      distance[k] = exact_distances(platform, problem.sources[k], scaled, tree.parent, tree.order);
      BigInteger total = 0;
      const auto& targets = generation.targets_of(k);
      for (std::size_t v = 0; v < n; ++v) {
        if (targets[v]) total += distance[k][v];
      }
      const Rational& sigma = solution.dual[static_cast<std::size_t>(generation.source_rows()[k])];
      // total / D < sigma?
      if (BigInteger(total * sigma.get_den()) < BigInteger(sigma.get_num() * denominator)) {
        // The exact tree, parents before children (zero lengths make ties).
        std::vector<std::vector<std::size_t>> children(n);
        for (std::size_t v = 0; v < n; ++v) {
          if (tree.parent[v] != kNoEdge) children[static_cast<std::size_t>(edges[tree.parent[v]].from)].push_back(v);
        }
        tree.order.assign(1, static_cast<std::size_t>(problem.sources[k]));
        for (std::size_t head = 0; head < tree.order.size(); ++head) {
          for (auto child : children[tree.order[head]]) tree.order.push_back(child);
        }
        improving.push_back(k);
        improving_routing.push_back(generation.routing_of(k, tree));
      }
    }
    if (!improving.empty()) {
      bool added = false;
      for (std::size_t i = 0; i < improving.size(); ++i) {
        added = generation.add_routing(improving[i], std::move(improving_routing[i])) || added;
      }
      exact_seconds += seconds_since(exact_start);
      if (!added) return std::nullopt;
      continue;
    }

    // Primal: each source's routings, scaled to deliver exactly TP.
    const Rational& throughput = solution.primal[static_cast<std::size_t>(generation.throughput_column())];
    if (sgn(throughput) <= 0) return std::nullopt;
    std::vector<Rational> total(problem.sources.size(), Rational(0));
    const auto& routings = generation.routings();
    const auto& source_of = generation.source_of_column();
    for (std::size_t i = 0; i < routings.size(); ++i) total[source_of[i]] += solution.primal[1 + i];
    std::vector<std::map<std::size_t, Rational>> flow(problem.sources.size());
    for (std::size_t i = 0; i < routings.size(); ++i) {
      const auto& weight = solution.primal[1 + i];
      if (sgn(weight) == 0) continue;
      const auto k = source_of[i];
      const Rational scaled_weight = weight * throughput / total[k];
      for (const auto& [e, count] : routings[i]) flow[k][e] += scaled_weight * count;
    }
    result.flows.resize(problem.sources.size());
    for (std::size_t k = 0; k < problem.sources.size(); ++k) {
      for (auto& [e, rate] : flow[k]) {
        if (sgn(rate) > 0) result.flows[k].emplace_back(e, std::move(rate));
      }
    }
    result.throughput = throughput;

    // The by-source LP's certificate: port duals, conservation = -distance.
    auto& certificate = result.certificate;
    certificate.formulation = to_string(PersonalFormulation::by_source);
    certificate.bound = 0;
    for (int row = 0; row < master.row_count(); ++row) {
      const auto& label = master.label(row);
      if (label.kind != "send_port" && label.kind != "receive_port") continue;
      const auto& y = solution.dual[static_cast<std::size_t>(row)];
      if (sgn(y) == 0) continue;
      certificate.bound += y;
      certificate.duals.push_back({label, y});
    }
    if (certificate.bound != throughput) return std::nullopt;
    for (std::size_t k = 0; k < problem.sources.size(); ++k) {
      const auto s = problem.sources[k];
      for (std::size_t v = 0; v < n; ++v) {
        if (v == static_cast<std::size_t>(s) || sgn(distance[k][v]) == 0) continue;
        Rational value(BigInteger(-distance[k][v]), denominator);
        value.canonicalize();
        certificate.duals.push_back({{"conservation", {graph.id(static_cast<ProcessorIndex>(v)), graph.id(s)}}, value});
      }
    }
    exact_seconds += seconds_since(exact_start);
    auto& stats = result.stats;
    stats.rows = master.row_count();
    stats.columns = master.column_count();
    stats.nonzeros = master.nonzero_count();
    stats.method = "routing generation, master " + solution.method + ", exact pricing";
    stats.fallback_reason = solution.fallback_reason;
    stats.floating_objective = solution.floating_objective;
    stats.floating_seconds = floating_seconds;
    stats.exact_seconds = exact_seconds;
    stats.columns_loaded = master.column_count();
    stats.generation_rounds = rounds;
    stats.seconds = seconds_since(start);
    return result;
  }
  return std::nullopt;
}

}  // namespace

std::optional<PersonalLpResult> solve_personal_by_path_generation(const SteadyPlatform& platform,
                                                                  const PersonalProblem& problem) {
  check_personal_problem(platform, problem);
  // A source whose only target is itself sends nothing: it has no row (its
  // TP <= sum of routings would force TP = 0) and no flow.
  PersonalProblem sending{{}, problem.targets};
  std::vector<std::size_t> original;
  for (std::size_t k = 0; k < problem.sources.size(); ++k) {
    const auto s = problem.sources[k];
    if (std::any_of(problem.targets.begin(), problem.targets.end(), [&](ProcessorIndex t) { return t != s; })) {
      sending.sources.push_back(s);
      original.push_back(k);
    }
  }
  auto result = solve_by_routings(platform, sending);
  if (!result) return std::nullopt;
  std::vector<SparseFlow> flows(problem.sources.size());
  for (std::size_t i = 0; i < original.size(); ++i) flows[original[i]] = std::move(result->flows[i]);
  result->flows = std::move(flows);
  return result;
}

}  // namespace hetcoll
