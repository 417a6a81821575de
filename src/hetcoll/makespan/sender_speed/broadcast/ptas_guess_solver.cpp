// The tables and the feasibility DP of one PTAS guess (ptas_internal.h), and
// the trees of a feasible guess.

#include "hetcoll/makespan/sender_speed/broadcast/ptas_internal.h"

#include <algorithm>

#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/broadcast/ordered_tree.h"

namespace hetcoll::ptas_internal {

GuessSolver::Outcome GuessSolver::run() {
  init_radix();
  if (!build_tree_table()) return Outcome::stopped;
  return run_feasibility_dp(setup_.deadline);
}

double GuessSolver::achieved() const {
  double makespan = setup_.fast_makespan;
  std::uint64_t index = dp_size_ - 1;
  while (index != 0) {
    const Useful& tree = useful_[choice_[index]];
    makespan = std::max(makespan, setup_.points[static_cast<size_t>(points_used_[index] - 1)].time + tree.time);
    index -= tree.dp_offset;
  }
  return makespan;
}

double GuessSolver::tighten(int max_rounds) {
  double best = achieved();
  double low = setup_.fast_makespan;
  for (int round = 0; round < max_rounds && best - low > 1e-6 * best; ++round) {
    double middle = (low + best) / 2;
    Outcome outcome = run_feasibility_dp(middle);
    if (outcome == Outcome::feasible) {
      best = achieved();
    } else {
      low = middle;
      if (outcome == Outcome::stopped) break;
    }
  }
  // Restore the tables of the best solution.
  Outcome outcome = run_feasibility_dp(best, /*may_stop=*/false);
  (void)outcome;
  return achieved();
}

void GuessSolver::init_radix() {
  const size_t k = setup_.classes.size();
  tree_cap_.resize(k);
  tree_stride_.resize(k);
  dp_stride_.resize(k);
  counts_.resize(k);
  tree_size_ = 1;
  dp_size_ = 1;
  words_ = static_cast<int>((k + kLanesPerWord - 1) / kLanesPerWord);
  for (size_t c = 0; c < k; ++c) {
    counts_[c] = static_cast<int>(setup_.classes[c].members.size());
    tree_cap_[c] = static_cast<int>(std::min<std::int64_t>(counts_[c], setup_.max_tree_size));
    tree_stride_[c] = tree_size_;
    tree_size_ *= static_cast<std::uint64_t>(tree_cap_[c] + 1);
    dp_stride_[c] = dp_size_;
    dp_size_ *= static_cast<std::uint64_t>(counts_[c] + 1);
  }
}

PackedCounts GuessSolver::pack(const std::vector<int>& digits) const {
  PackedCounts packed{};
  for (size_t c = 0; c < digits.size(); ++c) {
    packed[c / kLanesPerWord] |= static_cast<std::uint64_t>(digits[c]) << (16 * (c % kLanesPerWord));
  }
  return packed;
}

bool GuessSolver::fits(const PackedCounts& a, const PackedCounts& n) const {
  for (int w = 0; w < words_; ++w) {
    if ((((n[w] | kLaneHighBits) - a[w]) & kLaneHighBits) != kLaneHighBits) return false;
  }
  return true;
}

void GuessSolver::decode(std::uint64_t index, const std::vector<std::uint64_t>& stride, const std::vector<int>& cap,
                         std::vector<int>& digits) const {
  for (size_t c = 0; c < cap.size(); ++c) {
    digits[c] = static_cast<int>((index / stride[c]) % static_cast<std::uint64_t>(cap[c] + 1));
  }
}

bool GuessSolver::build_tree_table() {
  const size_t k = setup_.classes.size();
  const double limit = setup_.slack + setup_.tolerance;
  const std::int64_t max_size = setup_.max_tree_size;
  // Entries by number of processors (level).
  std::vector<std::vector<std::uint32_t>> level(static_cast<size_t>(max_size) + 1);
  std::vector<int> digits(k, 0);
  for (std::uint64_t index = 0; index < tree_size_; ++index) {
    int sum = 0;
    for (size_t c = 0; c < k; ++c) sum += digits[c];
    if (sum <= max_size) level[static_cast<size_t>(sum)].push_back(static_cast<std::uint32_t>(index));
    for (size_t c = 0; c < k; ++c) {  // odometer
      if (++digits[c] <= tree_cap_[c]) break;
      digits[c] = 0;
    }
  }
  best_.assign(tree_size_, kInfinity);
  root_class_.assign(tree_size_, -1);
  const size_t senders = static_cast<size_t>(setup_.sending_classes);
  fresh_.assign(senders, std::vector<double>(tree_size_, kInfinity));
  first_subtree_.assign(senders, std::vector<std::uint32_t>(tree_size_, 0));
  for (size_t c = 0; c < senders; ++c) fresh_[c][0] = 0;
  const double fastest_rounded = senders ? setup_.classes.front().rounded : kInfinity;
  std::uint64_t work = 0;
  for (std::int64_t size = 1; size <= max_size; ++size) {
    for (std::uint32_t index : level[static_cast<size_t>(size)]) {
      decode(index, tree_stride_, tree_cap_, digits);
      double best = kInfinity;
      int root = -1;
      for (size_t c = 0; c < k; ++c) {
        if (digits[c] == 0) continue;
        double value;
        if (setup_.classes[c].leaf_only) {
          value = size == 1 ? 0.0 : kInfinity;
        } else {
          value = fresh_[c][index - tree_stride_[c]];
        }
        if (time_less(value, best, instance_.tolerance())) {  // ties: the first class
          best = value;
          root = static_cast<int>(c);
        }
      }
      best_[index] = best;
      root_class_[index] = static_cast<std::int8_t>(root);
      if (best <= limit) {
        useful_.push_back({index, 0, best, pack(digits)});
        useful_digits_.push_back(digits);
      }
    }
    ++stats_.table_references;
    for (size_t c = 0; c < senders; ++c) {
      const double rounded = setup_.classes[c].rounded;
      // The root's first send takes r_c, then the informed count at most
      // doubles per fastest rounded time.
      if (rounded + fastest_rounded * (ceil_log2(size + 1) - 1) > limit) continue;
      for (std::uint32_t index : level[static_cast<size_t>(size)]) {
        decode(index, tree_stride_, tree_cap_, digits);
        auto packed = pack(digits);
        double best = kInfinity;
        std::uint32_t choice = 0;
        for (const auto& tree : useful_) {
          ++work;
          if (!fits(tree.packed, packed)) continue;
          double rest = fresh_[c][index - tree.tree_index];
          double value = std::max(tree.time, rest);
          if (time_less(value, best, instance_.tolerance())) {  // ties: the first tree
            best = value;
            choice = tree.tree_index;
          }
        }
        double total = rounded + best;
        if (total <= limit) {
          fresh_[c][index] = total;
          first_subtree_[c][index] = choice;
        }
        stats_.table_references++;
        if ((stats_.table_references & 0xfff) == 0 && should_stop_()) return false;
      }
    }
  }
  return true;
}

GuessSolver::Outcome GuessSolver::run_feasibility_dp(double deadline, bool may_stop) {
  const size_t k = setup_.classes.size();
  for (size_t u = 0; u < useful_.size(); ++u) {
    std::uint64_t offset = 0;
    for (size_t c = 0; c < k; ++c) offset += static_cast<std::uint64_t>(useful_digits_[u][c]) * dp_stride_[c];
    useful_[u].dp_offset = offset;
  }
  const int point_count = static_cast<int>(setup_.points.size());
  std::vector<double> point_slack(setup_.points.size());
  for (size_t j = 0; j < setup_.points.size(); ++j) {
    point_slack[j] = deadline - setup_.points[j].time + setup_.tolerance;
  }
  points_used_.assign(dp_size_, INT_MAX);
  choice_.assign(dp_size_, 0);
  points_used_[0] = 0;
  std::vector<int> digits(k, 0);
  for (std::uint64_t index = 1; index < dp_size_; ++index) {
    for (size_t c = 0; c < k; ++c) {  // odometer: digits of `index`
      if (++digits[c] <= counts_[c]) break;
      digits[c] = 0;
    }
    auto packed = pack(digits);
    int best = INT_MAX;
    std::uint32_t choice = 0;
    for (size_t u = 0; u < useful_.size(); ++u) {
      const Useful& tree = useful_[u];
      if (!fits(tree.packed, packed)) continue;
      int before = points_used_[index - tree.dp_offset];
      if (before >= point_count || before + 1 >= best) continue;
      if (tree.time <= point_slack[static_cast<size_t>(before)]) {
        best = before + 1;
        choice = static_cast<std::uint32_t>(u);
      }
    }
    points_used_[index] = best;
    choice_[index] = choice;
    // DP states are table entries, not search nodes (the node limit is
    // for searches, core/limits.h).
    ++stats_.table_references;
    if (may_stop && (stats_.table_references & 0xfff) == 0 && should_stop_()) return Outcome::stopped;
  }
  if (setup_.fast_makespan > deadline + setup_.tolerance) return Outcome::infeasible;
  return points_used_[dp_size_ - 1] <= point_count ? Outcome::feasible : Outcome::infeasible;
}

std::vector<std::vector<ProcessorIndex>> GuessSolver::children() const {
  const Cluster& cluster = instance_.cluster;
  auto children = ordered_children(setup_.fast_transfers, cluster.size());
  // The trees, with the point each hangs from.
  struct Node {
    int slow_class;
    std::vector<int> kids;
    int subtree = 1;
    ProcessorIndex processor = kNoProcessor;
  };
  std::vector<Node> nodes;
  std::vector<std::pair<int, int>> roots;  // (point, root node)
  std::function<int(std::uint32_t)> build = [&](std::uint32_t tree) -> int {
    int node = static_cast<int>(nodes.size());
    int c = root_class_[tree];
    nodes.push_back({c, {}, 1, kNoProcessor});
    std::uint32_t rest = tree - static_cast<std::uint32_t>(tree_stride_[static_cast<size_t>(c)]);
    while (rest != 0) {
      std::uint32_t first = first_subtree_[static_cast<size_t>(c)][rest];
      int kid = build(first);
      nodes[static_cast<size_t>(node)].kids.push_back(kid);
      nodes[static_cast<size_t>(node)].subtree += nodes[static_cast<size_t>(kid)].subtree;
      rest -= first;
    }
    return node;
  };
  std::uint64_t index = dp_size_ - 1;
  while (index != 0) {
    const Useful& tree = useful_[choice_[index]];
    roots.push_back({points_used_[index] - 1, build(tree.tree_index)});
    index -= tree.dp_offset;
  }
  // Within a class, the fastest true processors take the nodes that forward most.
  std::vector<std::vector<int>> by_class(setup_.classes.size());
  for (size_t i = 0; i < nodes.size(); ++i) by_class[static_cast<size_t>(nodes[i].slow_class)].push_back(static_cast<int>(i));
  for (size_t c = 0; c < by_class.size(); ++c) {
    auto& list = by_class[c];
    std::stable_sort(list.begin(), list.end(), [&](int a, int b) {
      return nodes[static_cast<size_t>(a)].subtree > nodes[static_cast<size_t>(b)].subtree;
    });
    for (size_t i = 0; i < list.size(); ++i) {
      nodes[static_cast<size_t>(list[i])].processor = setup_.classes[c].members[i];
    }
  }
  for (const auto& node : nodes) {
    auto& list = children[static_cast<size_t>(node.processor)];
    for (int kid : node.kids) list.push_back(nodes[static_cast<size_t>(kid)].processor);
  }
  std::sort(roots.begin(), roots.end());
  for (auto [point, root] : roots) {
    children[static_cast<size_t>(setup_.points[static_cast<size_t>(point)].sender)].push_back(
        nodes[static_cast<size_t>(root)].processor);
  }
  return children;
}


}  // namespace hetcoll::ptas_internal
