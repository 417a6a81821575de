// Pipelined broadcast plans as JSON (docs/FORMATS.md "Pipelined broadcast
// plans"): what `hetcoll tree --json` prints and `--out` writes. The object
// is self-describing for a runtime that replays it (source, slice size,
// every tree with its weight and its edges, routes of routed edges).
#pragma once

#include <ostream>

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/pipelined_tree_plan.h"

namespace hetcoll {

void write_pipelined_tree_json(std::ostream& out, const Platform& platform, const PipelinedTreePlan& plan);

// The edges of a tree as a JSON array: [{"from", "to"}], plus "route" (node
// ids, both ends included) for an edge that is not a single platform edge.
void write_tree_edges_json(std::ostream& out, const Platform& platform, const BroadcastTree& tree);

}  // namespace hetcoll
