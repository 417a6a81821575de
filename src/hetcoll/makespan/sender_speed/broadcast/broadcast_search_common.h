// Shared by the exact broadcast searches (optimal_search, generic_search):
// the receivers grouped into classes of equal transmission time, and the
// way back from a class sequence to processors.
//
// Classes merge times equal up to the cluster tolerance (core/ids.h); a
// class's time is its smallest member time. Members of a class are taken
// in increasing index order, so a class sequence names one processor
// sequence deterministically. O(n log n).
#pragma once

#include <vector>

#include "hetcoll/model/cluster.h"

namespace hetcoll {

struct ClassProblem {
  ProcessorIndex source = kNoProcessor;
  double source_time = 0;
  std::vector<double> class_time;                    // ascending
  std::vector<int> counts;                           // receivers per class
  std::vector<std::vector<ProcessorIndex>> members;  // per class, ascending index
  double tolerance = 0;
  bool source_is_fastest = false;  // t(source) <= every receiver's time (up to the tolerance)
  // The source belongs to the fastest receiver class (equal times): the
  // case in which Liu 2002 Thm 4.3 orders that class first. (A source
  // strictly faster than every receiver is the only fastest processor, and
  // the theorem says nothing about the receivers.)
  bool source_in_fastest_class = false;

  int classes() const { return static_cast<int>(class_time.size()); }
  int receiver_count() const;
};

// Throws InputError if `source` or a receiver is not a processor, a
// receiver repeats, or the source is among the receivers.
ClassProblem make_class_problem(const Cluster& cluster, ProcessorIndex source,
                                const std::vector<ProcessorIndex>& receivers);

// Receivers in sequence order from a list of slot groups (class counts per
// group, in time order; fastest class first inside a group).
std::vector<ProcessorIndex> sequence_of_groups(const ClassProblem& problem,
                                               const std::vector<std::vector<int>>& groups);

// Receivers in sequence order from one class per position.
std::vector<ProcessorIndex> sequence_of_classes(const ClassProblem& problem, const std::vector<int>& classes);

}  // namespace hetcoll
