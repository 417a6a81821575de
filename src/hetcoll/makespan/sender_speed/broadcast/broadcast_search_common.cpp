#include "hetcoll/makespan/sender_speed/broadcast/broadcast_search_common.h"

#include <algorithm>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

int ClassProblem::receiver_count() const {
  int total = 0;
  for (int c : counts) total += c;
  return total;
}

ClassProblem make_class_problem(const Cluster& cluster, ProcessorIndex source,
                                const std::vector<ProcessorIndex>& receivers) {
  if (source < 0 || source >= cluster.size()) throw InputError("the source is not a processor of the cluster");
  std::vector<char> seen(static_cast<size_t>(cluster.size()), 0);
  seen[static_cast<size_t>(source)] = 1;
  for (ProcessorIndex p : receivers) {
    if (p < 0 || p >= cluster.size()) throw InputError(fmt::format("receiver {} is not a processor of the cluster", p));
    if (seen[static_cast<size_t>(p)]) {
      throw InputError(fmt::format("receiver {} is the source or appears twice", cluster.id(p)));
    }
    seen[static_cast<size_t>(p)] = 1;
  }
  ClassProblem problem;
  problem.source = source;
  problem.source_time = cluster.transmission_time(source);
  problem.tolerance = cluster.tolerance();
  std::vector<ProcessorIndex> sorted = receivers;
  std::sort(sorted.begin(), sorted.end(), [&](ProcessorIndex a, ProcessorIndex b) {
    double ta = cluster.transmission_time(a), tb = cluster.transmission_time(b);
    return ta != tb ? ta < tb : a < b;
  });
  for (ProcessorIndex p : sorted) {
    const double t = cluster.transmission_time(p);
    // Merge with the class whose smallest time is within the tolerance.
    if (problem.class_time.empty() || !time_leq(t, problem.class_time.back(), problem.tolerance)) {
      problem.class_time.push_back(t);
      problem.members.push_back({});
    }
    problem.members.back().push_back(p);
  }
  for (auto& members : problem.members) {
    std::sort(members.begin(), members.end());
    problem.counts.push_back(static_cast<int>(members.size()));
  }
  problem.source_is_fastest =
      problem.class_time.empty() || time_leq(problem.source_time, problem.class_time.front(), problem.tolerance);
  problem.source_in_fastest_class =
      !problem.class_time.empty() && time_equal(problem.source_time, problem.class_time.front(), problem.tolerance);
  return problem;
}

std::vector<ProcessorIndex> sequence_of_groups(const ClassProblem& problem,
                                               const std::vector<std::vector<int>>& groups) {
  std::vector<size_t> used(problem.members.size(), 0);
  std::vector<ProcessorIndex> sequence;
  for (const auto& group : groups) {
    for (size_t c = 0; c < group.size(); ++c) {
      for (int i = 0; i < group[c]; ++i) sequence.push_back(problem.members[c][used[c]++]);
    }
  }
  return sequence;
}

std::vector<ProcessorIndex> sequence_of_classes(const ClassProblem& problem, const std::vector<int>& classes) {
  std::vector<size_t> used(problem.members.size(), 0);
  std::vector<ProcessorIndex> sequence;
  sequence.reserve(classes.size());
  for (int c : classes) {
    sequence.push_back(problem.members[static_cast<size_t>(c)][used[static_cast<size_t>(c)]++]);
  }
  return sequence;
}

}  // namespace hetcoll
