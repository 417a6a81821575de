// Leaf-average lower bound on the optimal reduce (ours), in the MCP view of
// mcp_tree.h: the makespan is the heaviest root-to-leaf path of a binary
// tree on the senders, each node weighing its sender's transmission time.
//
// Bound. Complete the tree with empty children: a full binary tree with the
// N senders as internal nodes and N + 1 leaves (closed slots). A leaf f's
// path weight W_f (the sum of its ancestors' times: its parent's end in
// reversed time) is at most the makespan T, so
//     T >= (1 / (N + 1)) sum_f W_f = (1 / (N + 1)) sum_u t_u L_u,
// L_u = the number of leaves below internal node u. Sort the L values
// ascending, l_1 <= ... <= l_N, with prefix sums P_j, and the times
// descending, c_1 >= ... >= c_N (c_{N+1} = 0). By the rearrangement
// inequality and Abel summation
//     sum_u t_u L_u >= sum_j c_j l_j = sum_j (c_j - c_{j+1}) P_j,
// and every coefficient c_j - c_{j+1} is >= 0, so P_j >= h(j) gives
//     T >= B = (1 / (N + 1)) sum_j (c_j - c_{j+1}) h(j).
// h(j) = the least total leaf depth of a forest of full binary trees with j
// internal nodes in all and at most N + 1 leaves. P_j >= h(j): take j nodes
// of least L, ties to the deeper node; a proper descendant has a strictly
// smaller L, so the set is closed under descendants: a forest of j
// internal nodes on distinct leaves of the tree, in which each node's L is
// its leaves in the forest, and summing those over the internal nodes
// counts each leaf once per ancestor (its depth).
// Computing h: a tree of l leaves has total leaf depth at least
// phi(l) = l q + 2 (l - 2^q), q = floor(log2 l) (the minimum external path
// length: Knuth, The Art of Computer Programming vol. 1, sec. 2.3.4.5).
// phi's increments, floor(log2 l) + 2, never decrease (phi is convex), so
// for c trees holding j + c leaves the least total splits the leaves as
// evenly as possible (moving a leaf from a tree of l to one of l' <= l - 2
// never raises the sum); h(j) = the minimum over c = 1 .. min(j, N + 1 - j).
//
// The bound is exact for the average but not for the maximum: on all-
// distinct times in [1, 4) it lies 4-6% below the best trees found at n =
// 25 and 40, where the closed-form bound of bounds.h lies 40-70% below.
// Complexity: O(N^2) (skipped, returning 0, above kLeafAverageMaxSenders).
// The result is rounded down by a relative 1e-12 for floating-point sums.
#pragma once

#include <vector>

#include "hetcoll/model/cluster.h"

namespace hetcoll {

// Above this many senders the bound returns 0 (its O(N^2) is not paid).
constexpr std::size_t kLeafAverageMaxSenders = 4096;

// h(j) of the header for j = 0 .. merges, with `leaves` unit leaves
// available (merges <= leaves - 1).
std::vector<double> least_forest_leaf_depths(int leaves, int merges);

// B of the header for these sender times (one entry per sender, any order).
double reduce_leaf_average_bound(std::vector<double> sender_times);

// The same for every processor but `root`.
double reduce_leaf_average_bound(const Cluster& cluster, ProcessorIndex root);

}  // namespace hetcoll
