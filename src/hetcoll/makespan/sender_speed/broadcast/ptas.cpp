#include "hetcoll/makespan/sender_speed/broadcast/ptas.h"

#include <algorithm>
#include <chrono>
#include <array>
#include <climits>
#include <cmath>
#include <limits>
#include <queue>

#include <fmt/format.h>

#include "hetcoll/core/error.h"
#include "hetcoll/makespan/bounds.h"
#include "hetcoll/makespan/sender_speed/broadcast/fnf.h"
#include "hetcoll/makespan/sender_speed/broadcast/ordered_tree.h"
#include "hetcoll/makespan/claims.h"

namespace hetcoll {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Cost of one predicted elementary step (one "is tree m <= n, does it fit"
// test), measured with `hetcoll experiment ptas-quality` on the development
// machine (2 cores, Release): see docs/RESULTS.md. Predictions are upper
// estimates: the run stops at the first feasible guess.
constexpr double kSecondsPerOperation = 4e-9;

constexpr double kMaxBytes = kPtasMaxBytes;

// Bisection rounds of PtasParameters::tighten_deadline (each re-runs the DP).
constexpr int kTighteningRounds = 8;

// Count vectors are packed 16 bits per class, 4 classes per word, so that
// "a <= n componentwise" is two word operations (SWAR).
constexpr std::uint64_t kLaneHighBits = 0x8000800080008000ULL;
constexpr int kLanesPerWord = 4;
constexpr int kMaxWords = 8;
constexpr int kMaxClasses = kLanesPerWord * kMaxWords;
constexpr int kMaxDigit = 0x7fff;
using PackedCounts = std::array<std::uint64_t, kMaxWords>;

struct Instance {
  const Cluster& cluster;
  ProcessorIndex source = kNoProcessor;
  std::vector<ProcessorIndex> receivers;  // fastest first, then by index
  double fastest = 0;                     // t_min over the source and the receivers
  double eps = 0, eps_prime = 0;
  double fnf_makespan = 0;                // FNF over the same processors
  double simple_lower_bound = 0;

  // The tolerance rule of core/ids.h for every decision of the scheme.
  double tolerance() const { return cluster.tolerance(); }
  double guess(int j) const { return fastest * std::pow(1 + eps, j); }
  int first_guess_index() const {
    if (simple_lower_bound <= fastest) return 0;
    return std::max(0, static_cast<int>(std::floor(std::log(simple_lower_bound / fastest) / std::log1p(eps) + 1e-9)));
  }
};

struct SlowClass {
  double rounded = 0;  // every member is rounded up to this; infinity for the leaf-only class
  bool leaf_only = false;
  std::vector<ProcessorIndex> members;  // fastest first
};

struct SendingPoint {
  double time;  // when the slow processor served at this point has received
  ProcessorIndex sender;
};

// Everything one guess needs before its tables.
struct GuessSetup {
  double guess = 0, deadline = 0, tolerance = 0;
  std::vector<ProcessorIndex> fast;  // F without the source, fastest first
  std::vector<ProcessorIndex> slow;  // S, fastest first
  std::vector<Transfer> fast_transfers;
  double fast_makespan = 0;
  std::vector<SendingPoint> points;  // the |S| earliest, sorted
  std::vector<SlowClass> classes;    // by rounded time; the leaf-only class last
  int sending_classes = 0;           // classes that may have children
  double slack = 0;                  // deadline - earliest point
  std::int64_t max_tree_size = 0;    // no tree within the slack is larger
  enum class Verdict { undecided, feasible_fast_only, fast_part_too_late, no_sending_point } verdict =
      Verdict::undecided;
};

// Smallest i >= 1 with t <= theta (1+eps')^i, for t > theta; boundaries
// are compared with the cluster tolerance, so rounding noise (decimal or
// rescaled times) never moves a time to another class.
int class_index(double t, double theta, double eps_prime, double tolerance) {
  int i = std::max(1, static_cast<int>(std::ceil(std::log(t / theta) / std::log1p(eps_prime))));
  while (t > theta * std::pow(1 + eps_prime, i) + tolerance) ++i;
  while (i > 1 && t <= theta * std::pow(1 + eps_prime, i - 1) + tolerance) --i;
  return i;
}

GuessSetup setup_guess(const Instance& instance, double guess) {
  const Cluster& cluster = instance.cluster;
  GuessSetup setup;
  setup.guess = guess;
  const double theta = instance.eps_prime * guess;
  setup.deadline = (1 + instance.eps_prime) * (1 + 3 * instance.eps_prime) * guess;
  setup.tolerance = instance.tolerance();
  for (ProcessorIndex p : instance.receivers) {
    (cluster.transmission_time(p) <= theta + setup.tolerance ? setup.fast : setup.slow).push_back(p);
  }
  setup.fast_transfers = fnf_transfers(cluster, instance.source, setup.fast);
  setup.fast_makespan = last_completion(setup.fast_transfers);
  if (setup.fast_makespan > setup.deadline + setup.tolerance) {
    setup.verdict = GuessSetup::Verdict::fast_part_too_late;
    return setup;
  }
  if (setup.slow.empty()) {
    setup.verdict = GuessSetup::Verdict::feasible_fast_only;
    return setup;
  }
  // When each fast holder is done with its FNF sends inside F.
  std::vector<std::pair<ProcessorIndex, double>> free_from;  // (holder, time)
  free_from.reserve(setup.fast.size() + 1);
  {
    std::vector<ProcessorIndex> holders = setup.fast;
    holders.push_back(instance.source);
    std::sort(holders.begin(), holders.end());
    std::vector<double> busy(holders.size(), 0.0);
    auto slot = [&](ProcessorIndex p) {
      return static_cast<size_t>(std::lower_bound(holders.begin(), holders.end(), p) - holders.begin());
    };
    for (const auto& transfer : setup.fast_transfers) {
      busy[slot(transfer.from)] = std::max(busy[slot(transfer.from)], transfer.end);
      busy[slot(transfer.to)] = std::max(busy[slot(transfer.to)], transfer.end);
    }
    for (size_t i = 0; i < holders.size(); ++i) free_from.push_back({holders[i], busy[i]});
  }
  struct Next {
    double time, send_time;
    ProcessorIndex sender;
    bool operator>(const Next& other) const {
      if (time != other.time) return time > other.time;
      if (send_time != other.send_time) return send_time > other.send_time;
      return sender > other.sender;
    }
  };
  std::priority_queue<Next, std::vector<Next>, std::greater<>> heap;
  for (auto [holder, free] : free_from) {
    double t = cluster.transmission_time(holder);
    heap.push({free + t, t, holder});
  }
  // Points within the tolerance of the earliest are one tie: the faster
  // sender first, then the lower index (never the rounding noise).
  std::vector<Next> tied;
  while (setup.points.size() < setup.slow.size() && !heap.empty() &&
         heap.top().time <= setup.deadline + setup.tolerance) {
    tied.assign(1, heap.top());
    heap.pop();
    while (!heap.empty() && heap.top().time <= tied.front().time + setup.tolerance) {
      tied.push_back(heap.top());
      heap.pop();
    }
    auto chosen = std::min_element(tied.begin(), tied.end(), [&](const Next& a, const Next& b) {
      if (!time_equal(a.send_time, b.send_time, setup.tolerance)) return a.send_time < b.send_time;
      return a.sender < b.sender;
    });
    Next next = *chosen;
    tied.erase(chosen);
    for (const auto& other : tied) heap.push(other);
    setup.points.push_back({next.time, next.sender});
    heap.push({next.time + next.send_time, next.send_time, next.sender});
  }
  if (setup.points.empty()) {
    setup.verdict = GuessSetup::Verdict::no_sending_point;
    return setup;
  }
  setup.slack = setup.deadline - setup.points.front().time;
  // Classes by powers of (1+eps'); `slow` is sorted, so classes come in order.
  SlowClass leaf_only;
  leaf_only.leaf_only = true;
  leaf_only.rounded = kInfinity;
  int current_index = 0;
  for (ProcessorIndex p : setup.slow) {
    double t = cluster.transmission_time(p);
    int index = class_index(t, theta, instance.eps_prime, cluster.tolerance());
    if (setup.classes.empty() || index != current_index) {
      setup.classes.push_back({});
      current_index = index;
    }
    setup.classes.back().members.push_back(p);
    setup.classes.back().rounded = t;  // the slowest member so far
  }
  std::vector<SlowClass> kept;
  for (auto& slow_class : setup.classes) {
    if (slow_class.rounded > setup.slack + setup.tolerance) {
      leaf_only.members.insert(leaf_only.members.end(), slow_class.members.begin(), slow_class.members.end());
    } else {
      kept.push_back(std::move(slow_class));
    }
  }
  setup.sending_classes = static_cast<int>(kept.size());
  if (!leaf_only.members.empty()) kept.push_back(std::move(leaf_only));
  setup.classes = std::move(kept);
  // In time `slack` with every send taking >= r_min, the informed count at
  // most doubles per r_min.
  std::int64_t size_bound = 1;
  if (setup.sending_classes > 0) {
    double levels = std::floor((setup.slack + setup.tolerance) / setup.classes.front().rounded);
    size_bound = levels >= 62 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << static_cast<int>(levels));
  }
  setup.max_tree_size = std::min<std::int64_t>(size_bound, static_cast<std::int64_t>(setup.slow.size()));
  return setup;
}

// Number of vectors 0 <= m_i <= caps[i] with sum <= limit (as a double).
double count_bounded(const std::vector<std::int64_t>& caps, std::int64_t limit) {
  std::int64_t total = 0;
  double product = 1;
  for (auto cap : caps) {
    total += cap;
    product *= static_cast<double>(cap + 1);
  }
  limit = std::min(limit, total);
  if (limit == total) return product;
  if (static_cast<double>(limit) * static_cast<double>(caps.size()) * static_cast<double>(limit) > 1e8) return product;
  std::vector<double> ways(static_cast<size_t>(limit + 1), 0.0), next;
  ways[0] = 1;
  for (auto cap : caps) {
    next.assign(ways.size(), 0.0);
    // next[s] = sum_{x=0..cap} ways[s-x], by a running window.
    double window = 0;
    for (std::int64_t s = 0; s <= limit; ++s) {
      window += ways[static_cast<size_t>(s)];
      if (s - cap - 1 >= 0) window -= ways[static_cast<size_t>(s - cap - 1)];
      next[static_cast<size_t>(s)] = window;
    }
    ways.swap(next);
  }
  double count = 0;
  for (double w : ways) count += w;
  return count;
}

struct GuessWork {
  double tree_vectors = 0, useful_trees = 0, dp_states = 0, operations = 0, bytes = 0;
  double dp_operations = 0;  // one run of the feasibility DP
  int classes = 0;
  int largest_class = 0;
};

GuessWork predict_guess(const Instance& instance, const GuessSetup& setup) {
  GuessWork work;
  work.operations = static_cast<double>(instance.receivers.size()) * 20;  // FNF and set-up
  if (setup.verdict != GuessSetup::Verdict::undecided) return work;
  const size_t k = setup.classes.size();
  work.classes = static_cast<int>(k);
  std::vector<std::int64_t> caps(k), counts(k);
  work.dp_states = 1;
  double dense_tree_table = 1;
  for (size_t c = 0; c < k; ++c) {
    counts[c] = static_cast<std::int64_t>(setup.classes[c].members.size());
    caps[c] = std::min<std::int64_t>(counts[c], setup.max_tree_size);
    work.dp_states *= static_cast<double>(counts[c] + 1);
    dense_tree_table *= static_cast<double>(caps[c] + 1);
    work.largest_class = std::max(work.largest_class, static_cast<int>(std::min<std::int64_t>(counts[c], INT_MAX)));
  }
  work.tree_vectors = count_bounded(caps, setup.max_tree_size);
  // Trees whose fastest class is c hold at most 2^floor(slack / r_c) nodes.
  for (size_t c = 0; c < k; ++c) {
    std::int64_t bound = 1;
    if (!setup.classes[c].leaf_only) {
      double levels = std::floor((setup.slack + setup.tolerance) / setup.classes[c].rounded);
      bound = levels >= 62 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << static_cast<int>(levels));
    }
    bound = std::min(bound, setup.max_tree_size);
    std::vector<std::int64_t> from_c(caps.begin() + static_cast<std::ptrdiff_t>(c), caps.end());
    double with_any = count_bounded(from_c, bound);
    from_c[0] = 0;
    work.useful_trees += with_any - count_bounded(from_c, bound);
  }
  if (static_cast<int>(k) > kMaxClasses || work.largest_class > kMaxDigit || dense_tree_table >= 4e9) {
    work.operations = kInfinity;  // beyond what the tables can represent
    work.bytes = kInfinity;
    return work;
  }
  const double words = std::ceil(static_cast<double>(k) / kLanesPerWord);
  // The tree table is dense over prod (cap_i + 1) entries, scanned once.
  work.operations += dense_tree_table * (static_cast<double>(k) + 2) +
                     work.tree_vectors * std::max(1, setup.sending_classes) * work.useful_trees * words +
                     work.dp_states * work.useful_trees * words;
  work.dp_operations = work.dp_states * work.useful_trees * words;
  work.bytes = dense_tree_table * (13.0 + 12.0 * setup.sending_classes) + work.dp_states * 8.0 +
               work.useful_trees * (8.0 * words + 24.0 + 4.0 * static_cast<double>(k));
  return work;
}

using Clock = std::chrono::steady_clock;

// Runs the tables and the DP of one guess; on success fills `children`.
class GuessSolver {
 public:
  GuessSolver(const Instance& instance, const GuessSetup& setup, SearchStats& stats,
              const std::function<bool()>& should_stop)
      : instance_(instance), setup_(setup), stats_(stats), should_stop_(should_stop) {}

  enum class Outcome { feasible, infeasible, stopped };

  Outcome run() {
    init_radix();
    if (!build_tree_table()) return Outcome::stopped;
    return run_feasibility_dp(setup_.deadline);
  }

  // After a feasible run(): the rounded makespan of the solution found.
  double achieved() const {
    double makespan = setup_.fast_makespan;
    std::uint64_t index = dp_size_ - 1;
    while (index != 0) {
      const Useful& tree = useful_[choice_[index]];
      makespan = std::max(makespan, setup_.points[static_cast<size_t>(points_used_[index] - 1)].time + tree.time);
      index -= tree.dp_offset;
    }
    return makespan;
  }

  // After a feasible run(): the guess's deadline D only bounds the answer;
  // bisect for the least deadline the same tables and points can meet (the
  // DP alone is re-run; the guarantee only gets better). Leaves the tables
  // describing the best solution found. Returns its rounded makespan.
  double tighten(int max_rounds) {
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

  // The ordered tree: the FNF part, then the slow trees at their points.
  std::vector<std::vector<ProcessorIndex>> children() const;

 private:
  struct Useful {
    std::uint32_t tree_index;  // in the tree table
    std::uint64_t dp_offset;   // the same vector in the DP's radix
    double time;               // B(m)
    PackedCounts packed;
  };

  void init_radix() {
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

  PackedCounts pack(const std::vector<int>& digits) const {
    PackedCounts packed{};
    for (size_t c = 0; c < digits.size(); ++c) {
      packed[c / kLanesPerWord] |= static_cast<std::uint64_t>(digits[c]) << (16 * (c % kLanesPerWord));
    }
    return packed;
  }
  // a <= n in every lane (digits < 2^15, so no borrow crosses a lane).
  bool fits(const PackedCounts& a, const PackedCounts& n) const {
    for (int w = 0; w < words_; ++w) {
      if ((((n[w] | kLaneHighBits) - a[w]) & kLaneHighBits) != kLaneHighBits) return false;
    }
    return true;
  }

  void decode(std::uint64_t index, const std::vector<std::uint64_t>& stride, const std::vector<int>& cap,
              std::vector<int>& digits) const {
    for (size_t c = 0; c < cap.size(); ++c) {
      digits[c] = static_cast<int>((index / stride[c]) % static_cast<std::uint64_t>(cap[c] + 1));
    }
  }

  bool build_tree_table() {
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

  Outcome run_feasibility_dp(double deadline, bool may_stop = true) {
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

  const Instance& instance_;
  const GuessSetup& setup_;
  SearchStats& stats_;
  const std::function<bool()>& should_stop_;

  std::vector<int> tree_cap_, counts_;
  std::vector<std::uint64_t> tree_stride_, dp_stride_;
  std::uint64_t tree_size_ = 1, dp_size_ = 1;
  int words_ = 1;
  std::vector<double> best_;
  std::vector<std::int8_t> root_class_;
  std::vector<std::vector<double>> fresh_;
  std::vector<std::vector<std::uint32_t>> first_subtree_;
  std::vector<Useful> useful_;
  std::vector<std::vector<int>> useful_digits_;
  std::vector<int> points_used_;
  std::vector<std::uint32_t> choice_;
};

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

Instance make_instance(const Cluster& cluster, ProcessorIndex source, const std::vector<ProcessorIndex>& receivers,
                       double eps, double eps_prime) {
  if (!(eps > 0) || !std::isfinite(eps)) throw InputError("eps", fmt::format("must be a positive number, got {}", eps));
  if (!(eps_prime > 0) || !std::isfinite(eps_prime)) {
    throw InputError("eps_prime", fmt::format("must be a positive number, got {}", eps_prime));
  }
  // Below this the guarantee changes by less than a millionth while the
  // number of guesses and of slow classes explodes.
  if (eps < kMinPtasEps) throw InputError("eps", fmt::format("must be at least {:g}, got {:g}", kMinPtasEps, eps));
  if (eps_prime < kMinPtasEps) {
    throw InputError("eps_prime", fmt::format("must be at least {:g}, got {:g}", kMinPtasEps, eps_prime));
  }
  if (source < 0 || source >= cluster.size()) throw InputError("the source is not a processor of the cluster");
  Instance instance{cluster, source, {}, 0, eps, eps_prime, 0, 0};
  std::vector<char> seen(static_cast<size_t>(cluster.size()), 0);
  seen[static_cast<size_t>(source)] = 1;
  for (ProcessorIndex p : receivers) {
    if (p < 0 || p >= cluster.size()) throw InputError("a receiver is not a processor of the cluster");
    if (!seen[static_cast<size_t>(p)]) {
      seen[static_cast<size_t>(p)] = 1;
      instance.receivers.push_back(p);
    }
  }
  sort_by_time_class(cluster, instance.receivers);  // fastest first; equal times (core/ids.h) by index
  instance.fastest = cluster.transmission_time(source);
  for (ProcessorIndex p : instance.receivers) instance.fastest = std::min(instance.fastest, cluster.transmission_time(p));
  instance.fnf_makespan = last_completion(fnf_transfers(cluster, source, instance.receivers));
  // bounds.h's broadcast bound, on the participating processors only (same proof).
  const auto participants = static_cast<std::int64_t>(instance.receivers.size()) + 1;
  instance.simple_lower_bound =
      participants < 2 ? 0.0 : cluster.transmission_time(source) + instance.fastest * (ceil_log2(participants) - 1);
  // The guesses T = t_min (1+eps)^j run from the lower bound to FNF's
  // makespan; a tiny eps makes that count explode before any other work.
  const double span = instance.fnf_makespan / std::max(instance.simple_lower_bound, instance.fastest);
  if (span > 1) {
    const double guesses = std::log(span) / std::log1p(eps) + 2;
    if (guesses > kMaxPtasGuesses) {
      throw InputError("eps", fmt::format("{} is too small: the scheme would try about {:.3g} guesses of the makespan "
                                          "(at most {:g} are allowed); use {:.3g} or more",
                                   eps, guesses, kMaxPtasGuesses, std::expm1(std::log(span) / (kMaxPtasGuesses - 2))));
    }
  }
  return instance;
}

bool source_is_fastest(const Instance& instance) {
  return time_leq(instance.cluster.transmission_time(instance.source), instance.fastest, instance.tolerance());
}

PtasWorkEstimate estimate(const Instance& instance, bool tighten, double stop_above_seconds = kInfinity) {
  PtasWorkEstimate result;
  result.eps = instance.eps;
  result.eps_prime = instance.eps_prime;
  if (instance.receivers.empty()) return result;
  // The run does at least every guess's set-up, so when predicting takes
  // longer than the threshold, so would the run: stop on the clock too.
  const auto started = std::chrono::steady_clock::now();
  double elapsed = 0;
  double previous = 0, largest_dp = 0;
  for (int j = instance.first_guess_index(); previous < instance.fnf_makespan; ++j) {
    double guess = instance.guess(j);
    previous = guess;
    GuessWork work = predict_guess(instance, setup_guess(instance, guess));
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ++result.guesses;
    result.max_classes = std::max(result.max_classes, work.classes);
    result.max_tree_vectors = std::max(result.max_tree_vectors, work.tree_vectors);
    result.max_useful_trees = std::max(result.max_useful_trees, work.useful_trees);
    result.max_dp_states = std::max(result.max_dp_states, work.dp_states);
    result.bytes = std::max(result.bytes, work.bytes);
    result.operations += work.operations;
    largest_dp = std::max(largest_dp, work.dp_operations);
    if (std::max(result.operations * kSecondsPerOperation, elapsed) > stop_above_seconds ||
        result.bytes > kMaxBytes) {
      result.truncated = true;  // already too long: no need to predict the rest
      break;
    }
  }
  // Tightening re-runs the DP of the feasible guess (PtasParameters).
  if (tighten) result.operations += kTighteningRounds * largest_dp;
  result.seconds = std::max(result.operations * kSecondsPerOperation, elapsed);
  return result;
}

std::string round_up_3(double value) {
  double scale = std::pow(10.0, std::floor(std::log10(value)) - 2);
  return fmt::format("{:g}", std::ceil(value / scale - 1e-9) * scale);
}

std::string human_seconds(double seconds) {
  if (!std::isfinite(seconds)) return "forever";
  if (seconds < 1) return fmt::format("{:.2g} s", seconds);
  if (seconds < 120) return fmt::format("{:.0f} s", seconds);
  if (seconds < 7200) return fmt::format("{:.0f} min", seconds / 60);
  if (seconds < 2 * 86400) return fmt::format("{:.1f} h", seconds / 3600);
  if (seconds < 2 * 365 * 86400.0) return fmt::format("{:.0f} days", seconds / 86400);
  return fmt::format("{:.2g} years", seconds / (365 * 86400.0));
}

MakespanPlan fnf_fallback(const Instance& instance) {
  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.root = instance.source;
  plan.transfers = fnf_transfers(instance.cluster, instance.source, instance.receivers);
  plan.makespan = last_completion(plan.transfers);
  return plan;
}

}  // namespace

std::string PtasWorkEstimate::describe() const {
  return fmt::format(
      "PTAS work (eps = {:g}, eps' = {:g}): up to {} guesses of T; per guess at most {} slow classes, a tree table of "
      "{:.3g} count vectors ({:.3g} trees within the slack, upper estimate), a feasibility DP over {:.3g} count "
      "vectors; about {:.3g} steps, predicted {}, {:.3g} MB",
      eps, eps_prime, guesses, max_classes, max_tree_vectors, max_useful_trees, max_dp_states, operations,
      human_seconds(seconds), bytes / 1e6);
}

double ptas_ratio(double eps, double eps_prime) { return (1 + eps) * (1 + eps_prime) * (1 + 3 * eps_prime); }

PtasWorkEstimate estimate_broadcast_ptas(const Cluster& cluster, ProcessorIndex source,
                                         const std::vector<ProcessorIndex>& receivers, double eps, double eps_prime,
                                         double stop_above_seconds) {
  return estimate(make_instance(cluster, source, receivers, eps, eps_prime), /*tighten=*/true, stop_above_seconds);
}

std::optional<double> finest_fitting_eps_prime(const Cluster& cluster, ProcessorIndex source,
                                               const std::vector<ProcessorIndex>& receivers, double eps,
                                               double eps_prime, double seconds, double search_seconds) {
  const auto started = Clock::now();
  for (double candidate = eps_prime; candidate < 8; candidate *= 1.1) {
    PtasWorkEstimate work = estimate_broadcast_ptas(cluster, source, receivers, eps, candidate, seconds);
    if (!work.truncated && work.seconds <= seconds && work.bytes <= kMaxBytes) return candidate;
    if (std::chrono::duration<double>(Clock::now() - started).count() > search_seconds) break;
  }
  return std::nullopt;
}

MakespanPlan plan_broadcast_ptas(const Cluster& cluster, ProcessorIndex source,
                                 const std::vector<ProcessorIndex>& receivers, const PtasParameters& parameters) {
  SearchBudget budget(parameters.limits);
  const double eps = parameters.eps;
  const double eps_prime = parameters.eps_prime.value_or(parameters.eps);
  Instance instance = make_instance(cluster, source, receivers, eps, eps_prime);
  const bool fastest_source = source_is_fastest(instance);
  const double ratio = ptas_ratio(eps, eps_prime);
  const bool subset = instance.receivers.size() + 1 < static_cast<size_t>(cluster.size());
  const double simple_bound =
      subset ? instance.simple_lower_bound
             : std::max(instance.simple_lower_bound, broadcast_lower_bound(cluster, source));

  MakespanPlan plan;
  plan.operation = Operation::broadcast;
  plan.algorithm = "ptas";
  plan.root = source;
  if (subset) {
    // A subset: checkable as a multicast to exactly these receivers.
    plan.operation = Operation::multicast;
    plan.targets = instance.receivers;
  }
  // FNF: the fallback when refused or stopped before a feasible guess.
  auto use_fnf = [&](std::string why) {
    MakespanPlan fallback = fnf_fallback(instance);
    plan.transfers = std::move(fallback.transfers);
    plan.makespan = fallback.makespan;
    plan.guarantee = Guarantee::at_most(fastest_source ? 1.5 : 2.0);
    plan.guarantee.text = fastest_source ? "<= 1.5 x optimal (FNF from a fastest source: the PTAS did not run to a plan)"
                                         : "<= 2 x optimal (FNF, Liu 2002 Thm 4.7: the PTAS did not run to a plan)";
    plan.notes.push_back(std::move(why));
    settle_claims(plan, simple_bound, cluster.tolerance(), kBoundMetProof);
    plan.stats.seconds = budget.elapsed_seconds();
    return plan;
  };

  const bool limited = parameters.limits.has_time_limit();
  const double refusal = limited ? parameters.limits.time_limit_seconds : kPtasDefaultRefusalSeconds;
  if (parameters.refuse_long_runs) {
    PtasWorkEstimate predicted = estimate(instance, parameters.tighten_deadline, refusal);
    if (predicted.truncated || predicted.seconds > refusal || predicted.bytes > kMaxBytes) {
      // The advice costs a few more predictions: at most about the limit.
      auto fitting = finest_fitting_eps_prime(cluster, source, receivers, eps, eps_prime * 1.1, refusal,
                                              std::max(0.0, refusal - budget.elapsed_seconds()));
      std::string advice = fitting ? fmt::format("the finest eps_prime that fits is about {}", round_up_3(*fitting))
                                   : std::string("no eps_prime below 8 fits (or finding one would take longer than "
                                                 "the limit): use algorithm \"fnf\"");
      plan.status = SearchStatus::refused;
      return use_fnf(fmt::format(
          "refused: with eps_prime {:g} the PTAS would take {}{} and {:.3g} MB on this instance ({} classes, {:.3g} "
          "DP states x {:.3g} trees per guess, {} guesses predicted); the limit is {} ({}); {}. The FNF plan is "
          "returned.",
          eps_prime, predicted.truncated ? "more than " : "about ", human_seconds(predicted.seconds),
          predicted.bytes / 1e6, predicted.max_classes, predicted.max_dp_states, predicted.max_useful_trees,
          predicted.guesses, human_seconds(refusal), limited ? "the time limit" : "the default when no limit is given",
          advice));
    }
    plan.notes.push_back(predicted.describe());
  }
  if (instance.receivers.empty()) {
    plan.guarantee = Guarantee::exact();
    settle_claims(plan, 0.0, cluster.tolerance(), "nothing to send");
    return plan;
  }

  std::function<bool()> should_stop = [&]() {
    budget.table_references = plan.stats.table_references;
    return !budget.check(instance.fnf_makespan);
  };

  double largest_infeasible = 0;
  double feasible_guess = 0, feasible_deadline = 0, rounded_makespan = 0;
  int tried = 0;
  std::vector<Transfer> scheme_transfers;
  double previous = 0;
  bool stopped = false;
  for (int j = instance.first_guess_index(); previous < instance.fnf_makespan; ++j) {
    if (!budget.check(instance.fnf_makespan)) {
      stopped = true;
      break;
    }
    const double guess = instance.guess(j);
    previous = guess;
    ++tried;
    GuessSetup setup = setup_guess(instance, guess);
    using Verdict = GuessSetup::Verdict;
    if (setup.verdict == Verdict::fast_part_too_late || setup.verdict == Verdict::no_sending_point) {
      largest_infeasible = guess;
      continue;
    }
    std::vector<std::vector<ProcessorIndex>> children;
    rounded_makespan = setup.fast_makespan;
    if (setup.verdict == Verdict::feasible_fast_only) {
      children = ordered_children(setup.fast_transfers, cluster.size());
    } else {
      GuessSolver solver(instance, setup, plan.stats, should_stop);
      auto outcome = solver.run();
      if (outcome == GuessSolver::Outcome::stopped) {
        stopped = true;
        break;
      }
      if (outcome == GuessSolver::Outcome::infeasible) {
        largest_infeasible = guess;
        continue;
      }
      rounded_makespan = parameters.tighten_deadline ? solver.tighten(kTighteningRounds) : solver.achieved();
      children = solver.children();
    }
    scheme_transfers = ordered_tree_transfers(cluster, source, children);
    feasible_guess = guess;
    feasible_deadline = setup.deadline;
    break;
  }

  // By the contrapositive of Theorem 2, an infeasible guess proves OPT > T
  // (Lemma 1 needs a fastest source).
  const double proven = fastest_source ? std::max(simple_bound, largest_infeasible) : simple_bound;
  plan.stats.seconds = budget.elapsed_seconds();
  const bool scheme_done = !scheme_transfers.empty();
  if (!scheme_done) {
    plan.status = stopped ? budget.status() : SearchStatus::finished;
    use_fnf(stopped ? fmt::format("the PTAS stopped ({}) before a feasible guess; the FNF plan is returned",
                                  to_string(budget.status()))
                    : "internal inconsistency: no guess up to the FNF makespan was feasible; the FNF plan is returned");
    settle_claims(plan, proven, cluster.tolerance(), kBoundMetProof);
    return plan;
  }
  // A feasible guess is a finished run, even if the limit cut the optional
  // deadline tightening short.
  const double scheme_makespan = last_completion(scheme_transfers);
  plan.transfers = std::move(scheme_transfers);
  plan.makespan = scheme_makespan;
  plan.notes.push_back(fmt::format(
      "first feasible guess T = {:g} (after {} guesses); deadline D = (1+eps')(1+3eps')T = {:g}; rounded "
      "makespan {:g}{}; true makespan {:g}",
      feasible_guess, tried, feasible_deadline, rounded_makespan,
      parameters.tighten_deadline ? " (least deadline the guess's tables meet)" : "", scheme_makespan));
  if (!time_leq(scheme_makespan, feasible_deadline, instance.tolerance())) {
    plan.notes.push_back("internal inconsistency: the re-timed tree exceeds its rounded deadline");
  }
  if (largest_infeasible > 0 && fastest_source) {
    plan.notes.push_back(fmt::format(
        "guess T = {:g} is infeasible, so OPT > {:g} (contrapositive of Khuller, Kim, Woeginger 2003 Thm 2)",
        largest_infeasible, largest_infeasible));
  }
  if (fastest_source) {
    plan.guarantee = Guarantee::at_most(ratio);
    plan.guarantee.text =
        fmt::format("<= (1+eps)(1+eps')(1+3eps') = {:.4g} x optimal (Khuller, Kim, Woeginger 2003 Thm 3)", ratio);
  } else {
    MakespanPlan fallback = fnf_fallback(instance);
    plan.notes.push_back(fmt::format(
        "the source is not a fastest processor: Khuller, Kim, Woeginger 2003's guarantee (Lemma 1) does not apply; "
        "the scheme gave {:g}, FNF gives {:g}; the better is kept, with FNF's <= 2 x optimal (Liu 2002 Thm 4.7)",
        scheme_makespan, fallback.makespan));
    if (fallback.makespan < scheme_makespan) {
      plan.transfers = std::move(fallback.transfers);
      plan.makespan = fallback.makespan;
    }
    plan.guarantee = Guarantee::at_most(2.0);
    plan.guarantee.text = "<= 2 x optimal (FNF bound; the PTAS bound needs a fastest source)";
  }
  settle_claims(plan, proven, cluster.tolerance(), kBoundMetProof);
  if (!plan.optimal && plan.lower_bound > 0) {
    plan.notes.push_back(fmt::format("a posteriori: makespan / lower bound = {:.4g}", plan.makespan / plan.lower_bound));
  }
  return plan;
}

MakespanPlan plan_broadcast_ptas(const Cluster& cluster, ProcessorIndex source, const PtasParameters& parameters) {
  std::vector<ProcessorIndex> receivers;
  receivers.reserve(static_cast<size_t>(cluster.size()));
  for (ProcessorIndex p = 0; p < cluster.size(); ++p) {
    if (p != source) receivers.push_back(p);
  }
  return plan_broadcast_ptas(cluster, source, receivers, parameters);
}

}  // namespace hetcoll
