#include "hetcoll/makespan/sites/site_collectives.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/mpi_algorithms/mpi_algorithms.h"

namespace hetcoll {
namespace {

constexpr double kLatencyFloor = 1e-6;  // seconds: smaller route latencies count as this
constexpr std::size_t kMaxSegments = 64;

struct SiteUnionFind {
  std::vector<int> parent;
  explicit SiteUnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  int find(int x) {
    while (parent[static_cast<std::size_t>(x)] != x) {
      x = parent[static_cast<std::size_t>(x)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(x)])];
    }
    return x;
  }
  void unite(int a, int b) {
    a = find(a), b = find(b);
    if (a != b) parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
  }
};

std::vector<std::vector<int>> groups_of(SiteUnionFind& sets, int ranks) {
  std::vector<std::vector<int>> groups;
  std::vector<int> group_of_root(static_cast<std::size_t>(ranks), -1);
  for (int r = 0; r < ranks; ++r) {
    const int root = sets.find(r);
    if (group_of_root[static_cast<std::size_t>(root)] < 0) {
      group_of_root[static_cast<std::size_t>(root)] = static_cast<int>(groups.size());
      groups.emplace_back();
    }
    groups[static_cast<std::size_t>(group_of_root[static_cast<std::size_t>(root)])].push_back(r);
  }
  return groups;
}

// Elements [offset, offset + n) of segment k of `segments` (the first
// count % segments segments one element longer).
std::pair<std::size_t, std::size_t> segment_range(std::size_t count, std::size_t segments, std::size_t k) {
  const std::size_t base = count / segments, longer = count % segments;
  return {k * base + std::min(k, longer), base + (k < longer ? 1 : 0)};
}

// Appends sub-programs (run on some of the ranks, on a slice of buffer 0)
// to a program. Scratch buffers of the sub-programs share one pool: a rank
// finishes a sub-program (every request waited) before the next begins.
class ProgramComposer {
 public:
  explicit ProgramComposer(CommProgram& program) : program_(program) {}

  void append(const CommProgram& sub, const std::vector<int>& rank_of, std::size_t offset) {
    for (std::size_t b = 1; b < sub.buffer_elements.size(); ++b) {
      if (pool_.size() < b) pool_.push_back(program_.add_buffer(sub.buffer_elements[b]));
      auto& elements = program_.buffer_elements[pool_[b - 1]];
      elements = std::max(elements, sub.buffer_elements[b]);
    }
    auto map_slice = [&](Slice slice) {
      if (slice.buffer == 0) {
        slice.offset += offset;
      } else {
        slice.buffer = pool_[slice.buffer - 1];
      }
      return slice;
    };
    for (int s = 0; s < sub.ranks; ++s) {
      const int rank = rank_of[static_cast<std::size_t>(s)];
      const auto base = static_cast<std::uint32_t>(program_.steps[static_cast<std::size_t>(rank)].size());
      for (ProgramStep step : sub.steps[static_cast<std::size_t>(s)]) {
        if (step.peer >= 0) step.peer = rank_of[static_cast<std::size_t>(step.peer)];
        step.data = map_slice(step.data);
        step.into = map_slice(step.into);
        for (auto& request : step.requests) request += base;
        program_.add(rank, std::move(step));
      }
    }
  }

 private:
  CommProgram& program_;
  std::vector<std::uint32_t> pool_;  // sub-program buffer b -> program buffer pool_[b - 1]
};

Operation phase_operation(bool broadcast_phase) { return broadcast_phase ? Operation::broadcast : Operation::reduce; }

// The MPI algorithms a site may run for one phase (those of predefined
// datatypes only are left out: the runtime runs derived ones too).
std::vector<const MpiAlgorithm*> phase_algorithms(Operation operation) {
  std::vector<const MpiAlgorithm*> algorithms;
  for (const auto& algorithm : mpi_algorithms()) {
    if (algorithm.operation != operation || algorithm.name == "default") continue;
    if (algorithm.description.find("predefined types") != std::string_view::npos) continue;
    algorithms.push_back(&algorithm);
  }
  return algorithms;
}

class SitePlanner {
 public:
  SitePlanner(const Platform& platform, const std::vector<ProcessorIndex>& processor_of_rank, const FlowNetwork& network,
              const sim::FlowModelOptions& flow)
      : platform_(platform), processor_of_rank_(processor_of_rank), network_(network), flow_(flow) {}

  // The fastest algorithm of the phase on site `site` (leader `leader`) for
  // segments of `longest` and `longest - 1` elements; "" for one rank.
  std::string site_algorithm(const std::vector<int>& site, int leader, bool broadcast_phase, std::size_t longest,
                             std::size_t shortest, std::size_t element_bytes) {
    if (site.size() < 2) return {};
    const auto key = std::make_tuple(site, leader, broadcast_phase, longest, shortest);
    if (auto found = chosen_.find(key); found != chosen_.end()) return found->second;
    const FlowNetwork& site_network = network_of(site);
    const int ranks = static_cast<int>(site.size());
    const int root = static_cast<int>(std::find(site.begin(), site.end(), leader) - site.begin());
    std::string best;
    double best_seconds = std::numeric_limits<double>::infinity();
    for (const auto* algorithm : phase_algorithms(phase_operation(broadcast_phase))) {
      if (!algorithm->refusal(ranks, longest, element_bytes).empty()) continue;
      if (shortest > 0 && !algorithm->refusal(ranks, shortest, element_bytes).empty()) continue;
      try {
        const auto program = algorithm->generate(ranks, root, longest, element_bytes);
        const auto timing = sim::predict_program(program, site_network, element_bytes, flow_);
        if (timing.completed() && timing.makespan < best_seconds) {
          best_seconds = timing.makespan;
          best = std::string(algorithm->name);
        }
      } catch (const InputError&) {
        continue;
      }
    }
    if (best.empty()) {
      best = broadcast_phase ? "binomial_tree" : "binomial";  // every call of two or more ranks
    }
    chosen_.emplace(key, best);
    return best;
  }

  double predict(const SitePlan& plan) const {
    const auto timing = sim::predict_program(program_of_site_plan(plan), network_, plan.element_bytes, flow_);
    return timing.completed() ? timing.makespan : std::numeric_limits<double>::infinity();
  }

 private:
  const FlowNetwork& network_of(const std::vector<int>& site) {
    auto found = site_networks_.find(site);
    if (found != site_networks_.end()) return found->second;
    std::vector<ProcessorIndex> members;
    for (int r : site) members.push_back(processor_of_rank_[static_cast<std::size_t>(r)]);
    return site_networks_.emplace(site, FlowNetwork(platform_, members)).first->second;
  }

  const Platform& platform_;
  const std::vector<ProcessorIndex>& processor_of_rank_;
  const FlowNetwork& network_;
  sim::FlowModelOptions flow_;
  std::map<std::vector<int>, FlowNetwork> site_networks_;
  std::map<std::tuple<std::vector<int>, int, bool, std::size_t, std::size_t>, std::string> chosen_;
};

std::size_t site_of_rank(const std::vector<std::vector<int>>& sites, int rank) {
  for (std::size_t s = 0; s < sites.size(); ++s) {
    if (std::find(sites[s].begin(), sites[s].end(), rank) != sites[s].end()) return s;
  }
  return SIZE_MAX;
}

// The leader of every site: the root in its own site; else the rank whose
// route from the root (broadcast), to it (reduce), or to and from the first
// rank of every other site (all-reduce) is fastest for the whole message.
std::vector<int> choose_leaders(const std::vector<std::vector<int>>& sites, const FlowNetwork& network,
                                Operation operation, int root, double bytes) {
  std::vector<int> leaders;
  const std::size_t root_site = operation == Operation::allreduce ? SIZE_MAX : site_of_rank(sites, root);
  for (std::size_t s = 0; s < sites.size(); ++s) {
    if (s == root_site) {
      leaders.push_back(root);
      continue;
    }
    auto cost = [&](int x) {
      const auto u = static_cast<std::size_t>(x);
      if (operation == Operation::broadcast) return network.alone_time(static_cast<std::size_t>(root), u, bytes);
      if (operation == Operation::reduce) return network.alone_time(u, static_cast<std::size_t>(root), bytes);
      double total = 0;
      for (std::size_t t = 0; t < sites.size(); ++t) {
        if (t == s) continue;
        const auto other = static_cast<std::size_t>(sites[t].front());
        total += network.alone_time(u, other, bytes) + network.alone_time(other, u, bytes);
      }
      return total;
    };
    int best = sites[s].front();
    for (int x : sites[s]) {
      if (cost(x) < cost(best)) best = x;
    }
    leaders.push_back(best);
  }
  return leaders;
}

// The rank of the root's site, not the root, whose routes to the other
// sites' leaders are fastest for the whole message.
int choose_gateway(const SitePlan& plan, const FlowNetwork& network, double bytes) {
  const std::size_t root_site = site_of_rank(plan.sites, plan.root);
  int best = -1;
  double best_seconds = std::numeric_limits<double>::infinity();
  for (int x : plan.sites[root_site]) {
    if (x == plan.root) continue;
    double seconds = 0;
    for (std::size_t s = 0; s < plan.sites.size(); ++s) {
      if (s != root_site) {
        seconds += network.alone_time(static_cast<std::size_t>(x), static_cast<std::size_t>(plan.leaders[s]), bytes);
      }
    }
    if (seconds < best_seconds) best = x, best_seconds = seconds;
  }
  return best;
}

// Per site: the rank, not its leader, whose routes to and from the other
// sites' leaders are fastest for the whole message; -1 for a site of one rank.
std::vector<int> choose_allreduce_gateways(const SitePlan& plan, const FlowNetwork& network, double bytes) {
  std::vector<int> gateways;
  for (std::size_t s = 0; s < plan.sites.size(); ++s) {
    int best = -1;
    double best_seconds = std::numeric_limits<double>::infinity();
    for (int x : plan.sites[s]) {
      if (x == plan.leaders[s]) continue;
      double seconds = 0;
      for (std::size_t t = 0; t < plan.sites.size(); ++t) {
        if (t == s) continue;
        const auto u = static_cast<std::size_t>(x), v = static_cast<std::size_t>(plan.leaders[t]);
        seconds += network.alone_time(u, v, bytes) + network.alone_time(v, u, bytes);
      }
      if (seconds < best_seconds) best = x, best_seconds = seconds;
    }
    gateways.push_back(best);
  }
  return gateways;
}

}  // namespace

std::vector<std::vector<int>> sites_of_ranks(const Platform& platform,
                                             const std::vector<ProcessorIndex>& processor_of_rank,
                                             const FlowNetwork& network) {
  const int ranks = static_cast<int>(processor_of_rank.size());
  // Declared sites.
  std::vector<std::string> names;
  for (auto processor : processor_of_rank) {
    const auto& site = platform.node(processor).site;
    if (std::find(names.begin(), names.end(), site) == names.end()) names.push_back(site);
  }
  SiteUnionFind sets(static_cast<std::size_t>(ranks));
  if (names.size() >= 2) {
    for (int a = 0; a < ranks; ++a) {
      for (int b = a + 1; b < ranks; ++b) {
        if (platform.node(processor_of_rank[static_cast<std::size_t>(a)]).site ==
            platform.node(processor_of_rank[static_cast<std::size_t>(b)]).site) {
          sets.unite(a, b);
        }
      }
    }
    return groups_of(sets, ranks);
  }
  // Sites by route latency: cut the sorted latencies at their largest gap.
  auto latency = [&](int a, int b) {
    const auto u = static_cast<std::size_t>(a), v = static_cast<std::size_t>(b);
    return std::max({network.path(u, v).latency, network.path(v, u).latency, kLatencyFloor});
  };
  std::vector<double> latencies;
  for (int a = 0; a < ranks; ++a) {
    for (int b = a + 1; b < ranks; ++b) latencies.push_back(latency(a, b));
  }
  std::sort(latencies.begin(), latencies.end());
  latencies.erase(std::unique(latencies.begin(), latencies.end()), latencies.end());
  double cut = -1, widest = kSiteLatencyGap;
  for (std::size_t i = 1; i < latencies.size(); ++i) {
    const double gap = latencies[i] / latencies[i - 1];
    if (gap >= widest) {
      widest = gap;
      cut = latencies[i];
    }
  }
  if (cut > 0) {
    for (int a = 0; a < ranks; ++a) {
      for (int b = a + 1; b < ranks; ++b) {
        if (latency(a, b) < cut) sets.unite(a, b);
      }
    }
  } else {
    for (int a = 1; a < ranks; ++a) sets.unite(0, a);
  }
  return groups_of(sets, ranks);
}

CommProgram program_of_site_plan(const SitePlan& plan) {
  if (plan.direct && plan.operation != Operation::allreduce) {
    // Every remote rank a site of its own, led by itself.
    SitePlan expanded = plan;
    expanded.direct = false;
    expanded.sites.clear();
    expanded.leaders.clear();
    expanded.site_broadcast.clear();
    expanded.site_reduce.clear();
    const std::size_t root_site = site_of_rank(plan.sites, plan.root);
    for (std::size_t s = 0; s < plan.sites.size(); ++s) {
      if (s == root_site) {
        expanded.sites.push_back(plan.sites[s]);
        expanded.leaders.push_back(plan.leaders[s]);
        expanded.site_broadcast.push_back(plan.site_broadcast[s]);
        expanded.site_reduce.push_back(plan.site_reduce[s]);
        continue;
      }
      for (int rank : plan.sites[s]) {
        expanded.sites.push_back({rank});
        expanded.leaders.push_back(rank);
        expanded.site_broadcast.emplace_back();
        expanded.site_reduce.emplace_back();
      }
    }
    return program_of_site_plan(expanded);
  }
  const std::size_t segments = std::max<std::size_t>(1, plan.segments);
  CommProgram program(plan.ranks, fmt::format("hetcoll site plan ({} sites, {} segments)", plan.sites.size(), segments));
  ProgramComposer composer(program);
  const std::size_t site_count = plan.sites.size();
  // Sub-programs per (site, phase, segment length), generated once.
  std::map<std::tuple<std::size_t, bool, std::size_t>, CommProgram> generated;
  auto run_site_phase = [&](std::size_t s, bool broadcast_phase, std::size_t k) {
    std::vector<int> site = plan.sites[s];
    if (broadcast_phase && plan.gateway >= 0) std::erase(site, plan.gateway);  // the gateway only forwards
    if (!plan.allreduce_gateways.empty() && plan.allreduce_gateways[s] >= 0) std::erase(site, plan.allreduce_gateways[s]);
    const std::string& name = broadcast_phase ? plan.site_broadcast[s] : plan.site_reduce[s];
    if (site.size() < 2 || name.empty()) return;
    const auto [offset, length] = segment_range(plan.element_count, segments, k);
    auto key = std::make_tuple(s, broadcast_phase, length);
    auto found = generated.find(key);
    if (found == generated.end()) {
      const int root = static_cast<int>(std::find(site.begin(), site.end(), plan.leaders[s]) - site.begin());
      found = generated
                  .emplace(key, mpi_algorithm_program(phase_operation(broadcast_phase), name,
                                                      static_cast<int>(site.size()), root, length, plan.element_bytes))
                  .first;
    }
    composer.append(found->second, site, offset);
  };
  auto segment = [&](std::size_t k) {
    const auto [offset, length] = segment_range(plan.element_count, segments, k);
    return Slice{0, offset, length};
  };
  auto in_buffer = [](std::uint32_t buffer, Slice slice) {
    slice.buffer = buffer;
    return slice;
  };

  if (plan.operation == Operation::broadcast) {
    const std::size_t root_site = site_of_rank(plan.sites, plan.root);
    const int wan_sender = plan.gateway >= 0 ? plan.gateway : plan.root;
    std::vector<std::vector<std::uint32_t>> received(site_count);  // per site: its leader's receive of each segment
    for (std::size_t s = 0; s < site_count; ++s) {
      if (s == root_site) continue;
      for (std::size_t k = 0; k < segments; ++k) {
        received[s].push_back(program.add(plan.leaders[s], ProgramStep::receive_of(wan_sender, segment(k))));
      }
    }
    // Without a gateway the root sends from a copy: its site's broadcast may
    // receive into the root's buffer while a WAN send still reads it.
    const std::uint32_t outgoing = plan.gateway >= 0 || site_count < 2 ? 0 : program.add_buffer(plan.element_count);
    std::vector<std::uint32_t> at_gateway;
    if (plan.gateway >= 0) {
      for (std::size_t k = 0; k < segments; ++k) {
        at_gateway.push_back(program.add(plan.gateway, ProgramStep::receive_of(plan.root, segment(k))));
        program.blocking_send(plan.root, plan.gateway, segment(k));
      }
    }
    std::vector<std::uint32_t> sent;
    for (std::size_t k = 0; k < segments; ++k) {
      if (plan.gateway >= 0) program.add(plan.gateway, ProgramStep::wait_for({at_gateway[k]}));
      if (plan.pace_seconds > 0 && k > 0) {
        program.add(wan_sender, ProgramStep::pace_until(static_cast<double>(k) * plan.pace_seconds));
      }
      if (outgoing != 0) program.add(plan.root, ProgramStep::copy_of(segment(k), in_buffer(outgoing, segment(k))));
      for (std::size_t s = 0; s < site_count; ++s) {
        if (s == root_site) continue;
        const Slice data = outgoing != 0 ? in_buffer(outgoing, segment(k)) : segment(k);
        sent.push_back(program.add(wan_sender, ProgramStep::send_of(plan.leaders[s], data)));
      }
      for (std::size_t s = 0; s < site_count; ++s) {
        if (s != root_site) program.add(plan.leaders[s], ProgramStep::wait_for({received[s][k]}));
        run_site_phase(s, true, k);
      }
    }
    if (!sent.empty()) program.add(wan_sender, ProgramStep::wait_for(sent));
    return program;
  }

  if (plan.operation == Operation::reduce) {
    const std::size_t root_site = site_of_rank(plan.sites, plan.root);
    std::vector<std::uint32_t> partial(site_count, 0);  // per remote site: the root's buffer of its parts
    std::vector<std::vector<std::uint32_t>> received(site_count);
    for (std::size_t s = 0; s < site_count; ++s) {
      if (s == root_site) continue;
      partial[s] = program.add_buffer(plan.element_count);
      for (std::size_t k = 0; k < segments; ++k) {
        received[s].push_back(
            program.add(plan.root, ProgramStep::receive_of(plan.leaders[s], in_buffer(partial[s], segment(k)))));
      }
    }
    std::vector<std::vector<std::uint32_t>> sent(site_count);
    for (std::size_t k = 0; k < segments; ++k) {
      for (std::size_t s = 0; s < site_count; ++s) {
        run_site_phase(s, false, k);
        if (s != root_site) sent[s].push_back(program.add(plan.leaders[s], ProgramStep::send_of(plan.root, segment(k))));
      }
    }
    for (std::size_t s = 0; s < site_count; ++s) {
      if (!sent[s].empty()) program.add(plan.leaders[s], ProgramStep::wait_for(sent[s]));
    }
    for (std::size_t k = 0; k < segments; ++k) {
      std::vector<std::uint32_t> arrivals;
      for (std::size_t s = 0; s < site_count; ++s) {
        if (s != root_site) arrivals.push_back(received[s][k]);
      }
      program.add(plan.root, ProgramStep::wait_for(arrivals));
      for (std::size_t s = 0; s < site_count; ++s) {
        if (s != root_site) program.add(plan.root, ProgramStep::combine_of(in_buffer(partial[s], segment(k)), segment(k)));
      }
    }
    return program;
  }

  // All-reduce: every site's part of each segment lands in buffer part[s]
  // at every WAN endpoint (the site's gateway, else its leader; its own part
  // copied or received there), combined in site order.
  auto gateway_of = [&](std::size_t s) { return plan.allreduce_gateways.empty() ? -1 : plan.allreduce_gateways[s]; };
  auto endpoint_of = [&](std::size_t s) { return gateway_of(s) >= 0 ? gateway_of(s) : plan.leaders[s]; };
  std::vector<std::uint32_t> part(site_count);
  for (std::size_t s = 0; s < site_count; ++s) part[s] = program.add_buffer(plan.element_count);
  // received[s][t][k]: endpoint s's receive of site t's segment k (t == s:
  // a gateway's receive of its leader's partial).
  std::vector<std::vector<std::vector<std::uint32_t>>> received(site_count,
                                                               std::vector<std::vector<std::uint32_t>>(site_count));
  for (std::size_t s = 0; s < site_count; ++s) {
    for (std::size_t t = 0; t < site_count; ++t) {
      if (t == s && gateway_of(s) < 0) continue;
      const int from = t == s ? plan.leaders[s] : endpoint_of(t);
      for (std::size_t k = 0; k < segments; ++k) {
        received[s][t].push_back(program.add(endpoint_of(s), ProgramStep::receive_of(from, in_buffer(part[t], segment(k)))));
      }
    }
  }
  // sent[s][k]: endpoint s's WAN sends of segment k; handed[s][k]: a
  // leader's send of its partial to its gateway, result[s][k]: the
  // gateway's send of the result back.
  std::vector<std::vector<std::vector<std::uint32_t>>> sent(site_count, std::vector<std::vector<std::uint32_t>>(segments));
  std::vector<std::vector<std::uint32_t>> handed(site_count, std::vector<std::uint32_t>(segments, 0));
  std::vector<std::vector<std::uint32_t>> results(site_count);
  const std::size_t lag = std::min(plan.lag, segments);
  for (std::size_t step = 0; step < segments + lag; ++step) {
    for (std::size_t s = 0; s < site_count; ++s) {
      const int leader = plan.leaders[s], gateway = gateway_of(s), endpoint = endpoint_of(s);
      if (step < segments) {
        const std::size_t k = step;
        run_site_phase(s, false, k);
        Slice outgoing = segment(k);
        if (gateway >= 0) {
          handed[s][k] = program.add(leader, ProgramStep::send_of(gateway, segment(k)));
          // The gateway's part: its own contribution and the rest of its site's.
          program.add(gateway, ProgramStep::wait_for({received[s][s][k]}));
          program.add(gateway, ProgramStep::combine_of(segment(k), in_buffer(part[s], segment(k))));
          outgoing = in_buffer(part[s], segment(k));
        }
        for (std::size_t t = 0; t < site_count; ++t) {
          if (t != s) sent[s][k].push_back(program.add(endpoint, ProgramStep::send_of(endpoint_of(t), outgoing)));
        }
      }
      if (step >= lag) {
        const std::size_t k = step - lag;
        std::vector<std::uint32_t> pending = sent[s][k];
        for (std::size_t t = 0; t < site_count; ++t) {
          if (t != s) pending.push_back(received[s][t][k]);
        }
        if (!pending.empty()) program.add(endpoint, ProgramStep::wait_for(pending));
        if (gateway < 0) program.add(endpoint, ProgramStep::copy_of(segment(k), in_buffer(part[s], segment(k))));
        program.add(endpoint, ProgramStep::copy_of(in_buffer(part[site_count - 1], segment(k)), segment(k)));
        for (std::size_t t = site_count - 1; t-- > 0;) {
          program.add(endpoint, ProgramStep::combine_of(in_buffer(part[t], segment(k)), segment(k)));
        }
        if (gateway >= 0) {
          results[s].push_back(program.add(gateway, ProgramStep::send_of(leader, segment(k))));
          program.add(leader, ProgramStep::wait_for({handed[s][k]}));
          program.blocking_receive(leader, gateway, segment(k));
        }
        run_site_phase(s, true, k);
      }
    }
  }
  for (std::size_t s = 0; s < site_count; ++s) {
    if (!results[s].empty()) program.add(gateway_of(s), ProgramStep::wait_for(results[s]));
  }
  return program;
}

SitePlan plan_site_collective(const Platform& platform, const std::vector<ProcessorIndex>& processor_of_rank,
                              const FlowNetwork& network, Operation operation, int root, std::size_t count,
                              std::size_t element_bytes, const sim::FlowModelOptions& flow) {
  const auto started = std::chrono::steady_clock::now();
  const int ranks = static_cast<int>(processor_of_rank.size());
  if (operation != Operation::broadcast && operation != Operation::reduce && operation != Operation::allreduce) {
    throw InputError("operation", fmt::format("site plans are broadcasts, reduces and all-reduces, not {}",
                                              to_string(operation)));
  }
  if (count == 0) throw InputError("count", "a site plan needs at least one element");
  if (element_bytes == 0) throw InputError("element_bytes", "must be at least 1");
  if (operation == Operation::allreduce) root = 0;
  if (root < 0 || root >= ranks) {
    throw InputError("root", fmt::format("root {} is not one of the {} ranks", root, ranks));
  }
  if (network.size() != processor_of_rank.size()) {
    throw InputError("network", fmt::format("the flow network has {} members for {} ranks", network.size(), ranks));
  }
  SitePlan plan;
  plan.operation = operation;
  plan.root = root;
  plan.element_count = count;
  plan.element_bytes = element_bytes;
  plan.ranks = ranks;
  plan.sites = sites_of_ranks(platform, processor_of_rank, network);
  if (plan.sites.size() < 2) throw InputError("platform", "the ranks form one site: no site plan");
  const double bytes = static_cast<double>(count * element_bytes);
  plan.leaders = choose_leaders(plan.sites, network, operation, root, bytes);

  SitePlanner planner(platform, processor_of_rank, network, flow);
  const std::size_t root_site = operation == Operation::allreduce ? SIZE_MAX : site_of_rank(plan.sites, root);
  SitePlan best;
  best.predicted_seconds = std::numeric_limits<double>::infinity();
  for (std::size_t segments = 1; segments <= std::min(count, kMaxSegments); segments *= 2) {
    SitePlan candidate = plan;
    candidate.segments = segments;
    const std::size_t longest = segment_range(count, segments, 0).second;
    const std::size_t shortest = segment_range(count, segments, segments - 1).second;
    const bool broadcast_phase = operation != Operation::reduce;
    const bool reduce_phase = operation != Operation::broadcast;
    candidate.site_broadcast.assign(plan.sites.size(), "");
    candidate.site_reduce.assign(plan.sites.size(), "");
    const std::size_t other = shortest == longest ? 0 : shortest;
    for (std::size_t s = 0; s < plan.sites.size(); ++s) {
      if (broadcast_phase) {
        candidate.site_broadcast[s] =
            planner.site_algorithm(plan.sites[s], plan.leaders[s], true, longest, other, element_bytes);
      }
      if (reduce_phase) {
        candidate.site_reduce[s] =
            planner.site_algorithm(plan.sites[s], plan.leaders[s], false, longest, other, element_bytes);
      }
    }
    // The structures tried: leaders only; a broadcast's gateway; all-reduce
    // gateways in every site of two ranks or more.
    candidate.gateway = -1;
    candidate.direct = false;
    std::vector<SitePlan> structures{candidate};
    if (operation == Operation::broadcast && plan.sites[root_site].size() >= 2) {
      SitePlan with_gateway = candidate;
      with_gateway.gateway = choose_gateway(plan, network, bytes);
      auto rest = plan.sites[root_site];
      std::erase(rest, with_gateway.gateway);
      with_gateway.site_broadcast[root_site] = planner.site_algorithm(rest, root, true, longest, other, element_bytes);
      structures.push_back(std::move(with_gateway));
    }
    if (operation == Operation::allreduce) {
      SitePlan with_gateways = candidate;
      with_gateways.allreduce_gateways = choose_allreduce_gateways(plan, network, bytes);
      bool any = false;
      for (std::size_t s = 0; s < plan.sites.size(); ++s) {
        const int gateway = with_gateways.allreduce_gateways[s];
        if (gateway < 0) continue;
        any = true;
        auto rest = plan.sites[s];
        std::erase(rest, gateway);
        with_gateways.site_broadcast[s] = planner.site_algorithm(rest, plan.leaders[s], true, longest, other, element_bytes);
        with_gateways.site_reduce[s] = planner.site_algorithm(rest, plan.leaders[s], false, longest, other, element_bytes);
      }
      if (any) structures.push_back(std::move(with_gateways));
    }
    std::vector<double> paces{0};
    std::vector<std::size_t> lags{0};
    if (operation == Operation::broadcast && segments > 1) {
      // One segment's time on the slowest route out of the root, times the
      // remote sites (they share the root's link).
      double interval = 0;
      for (std::size_t s = 0; s < plan.sites.size(); ++s) {
        if (s == root_site) continue;
        const auto& path = network.path(static_cast<std::size_t>(root), static_cast<std::size_t>(plan.leaders[s]));
        if (std::isfinite(path.rate_bound) && path.rate_bound > 0) {
          interval += static_cast<double>(longest * element_bytes) / path.rate_bound;
        }
      }
      if (interval > 0) paces.push_back(interval);
    }
    if (operation == Operation::allreduce && segments > 1) {
      lags = {segments};
      for (std::size_t lag = 1; lag < segments; lag *= 2) lags.push_back(lag);
      std::sort(lags.begin(), lags.end());
      lags.erase(std::unique(lags.begin(), lags.end()), lags.end());
    }
    for (SitePlan& structure : structures) {
      for (double pace : paces) {
        for (std::size_t lag : lags) {
          if (lag > segments) continue;
          structure.pace_seconds = pace;
          structure.lag = lag;
          structure.predicted_seconds = planner.predict(structure);
          if (structure.predicted_seconds < best.predicted_seconds) best = structure;
        }
      }
    }
    if (operation != Operation::allreduce && segments == 1) {
      // Direct: one message per remote rank, whole.
      candidate.gateway = -1;
      candidate.direct = true;
      candidate.pace_seconds = 0;
      candidate.lag = 0;
      candidate.predicted_seconds = planner.predict(candidate);
      if (candidate.predicted_seconds < best.predicted_seconds) best = candidate;
    }
  }
  if (!std::isfinite(best.predicted_seconds)) {
    throw InputError("platform", "no site plan completes in the flow model");
  }
  best.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return best;
}

}  // namespace hetcoll
