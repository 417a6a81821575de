#include "hetcoll/experiments/experiments_list.h"

namespace hetcoll {

void register_greedy_experiments(std::vector<Experiment>&) {}

}  // namespace hetcoll
