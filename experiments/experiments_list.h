// Each experiment file defines one of these; registry.cpp calls them all.
#pragma once

#include <vector>

#include "experiments/experiment.h"

namespace hetcoll {

void register_greedy_experiments(std::vector<Experiment>& list);  // greedy_scale.cpp
void register_baseline_experiments(std::vector<Experiment>& list);  // mpi_baseline.cpp
void register_ptas_experiments(std::vector<Experiment>& list);    // ptas_quality.cpp

void register_reduce_search_experiment(std::vector<Experiment>& list);  // reduce_search.cpp
void register_dp_references_experiment(std::vector<Experiment>& list);   // dp_references.cpp
void register_bcast_search_experiment(std::vector<Experiment>& list);     // bcast_search.cpp
void register_grid_makespan_experiment(std::vector<Experiment>& list);    // grid_makespan.cpp
void register_search_distinct_experiment(std::vector<Experiment>& list);  // search_distinct.cpp

#ifdef HETCOLL_WITH_LP
void register_bcast_trees_experiment(std::vector<Experiment>& list);  // steady_bcast_trees.cpp
void register_bcast_crossover_experiment(std::vector<Experiment>& list);  // steady_bcast_crossover.cpp
void register_steady_periodic_experiments(std::vector<Experiment>& list);  // steady_periodic.cpp
void register_steady_scale_experiment(std::vector<Experiment>& list);     // steady_scale.cpp
#endif

}  // namespace hetcoll
