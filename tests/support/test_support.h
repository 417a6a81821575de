// Helpers shared by the test programs: seeded random clusters and paths.
#pragma once

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "hetcoll/registry/registry.h"
#include "hetcoll/model/cluster.h"

namespace hetcoll::testing {

// A random cluster of n processors. With `classes` > 0 the times are drawn
// from that many distinct values (ties on purpose); otherwise uniformly from
// [1, max_ratio]. Values are small integers or halves so that ties are exact.
Cluster random_cluster(std::mt19937_64& rng, int n, int classes = 0, double max_ratio = 4.0);

// A request for `operation` on n processors: a random root; for a multicast,
// random targets (at least one); a shuffled sending order of all but the
// root (used by algorithm "ep").
MakespanRequest random_request(Operation operation, ProcessorIndex n, std::mt19937_64& rng);

std::string source_path(const std::string& relative);  // path inside the repository

// The message of the InputError `call` throws, or "no error".
std::string input_error_message(const std::function<void()>& call);

// Every processor of `cluster` but `source`, in index order (a broadcast's receivers).
std::vector<ProcessorIndex> everyone_but(const Cluster& cluster, ProcessorIndex source);

}  // namespace hetcoll::testing
