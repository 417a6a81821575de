// Each experiment file defines one of these; registry.cpp calls them all.
#pragma once

#include <vector>

#include "hetcoll/experiments/experiment.h"

namespace hetcoll {

void register_greedy_experiments(std::vector<Experiment>& list);  // greedy_scale.cpp

}  // namespace hetcoll
