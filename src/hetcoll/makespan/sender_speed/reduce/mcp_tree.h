// The binary "minimum critical path" (MCP) view of a reduce schedule —
// Liu, Kuo, Wang 2009 sec. 5.3.1 (Figs. 9-11) — shared by the exact reduce solvers.
//
// Problem: the n - 1 senders of a reduce to root d (d never sends, so its
// own time is irrelevant). Read backwards in time, an EP schedule is a
// binary tree: its root is the send completing last (received by d), the
// children of a send are its (at most two) predecessors of Lemma 1, and the
// makespan is the heaviest root-to-leaf path, each node weighing the
// transmission time of its sender. Conversely every binary tree on the
// senders is a valid schedule (each node starts when its children end; the
// token count of EP, n initial free processors, two consumed and one left
// per send, works out for any shape) and its start-time order, fed to EP,
// is no longer (Liu, Kuo, Wang 2009 sec. 3: moving windows earlier never hurts). So
//     optimal reduce = min over binary trees of the heaviest path,
// and by Observation 1 (= Corollary 1) some optimal tree is heap-ordered:
// every node is at least as fast as its children.
//
// Senders with equal times (up to the cluster tolerance) form a class;
// class 0 is the fastest. Solvers work on class counts and return a tree
// of classes; ep_order_from_mcp_tree() turns it into a sender order and
// reduce_plan_from_order() into a verified-shape plan via ep_transfers().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hetcoll/model/cluster.h"
#include "hetcoll/plan/plan.h"

namespace hetcoll {

struct SenderClasses {
  std::vector<double> times;                         // ascending; class 0 is the fastest
  std::vector<std::vector<ProcessorIndex>> members;  // the senders of each class, by index
  double spread = 0;  // the largest (class time - member time): 0 unless times were merged
  std::vector<int> counts() const;
  int sender_count() const;
  // Class times round members up by at most `spread`, and a schedule's
  // makespan is a sum of at most sender_count() send times, so the optimum
  // over class times exceeds the true optimum by at most this.
  double rounding_slack() const { return sender_count() * spread; }
};

// Groups every processor but `root` by transmission time. Times within the
// cluster tolerance of a class's fastest member join that class; the class
// time is its slowest member (so class-level makespans never undercount).
SenderClasses sender_classes(const Cluster& cluster, ProcessorIndex root);

struct McpNode {
  int class_index = 0;
  int left = -1;   // children: predecessors (earlier sends), -1 = none
  int right = -1;
};

struct McpTree {
  std::vector<McpNode> nodes;
  int root = -1;  // -1 for the empty tree (no senders)

  // Appends a node and returns its index.
  int add(int class_index, int left = -1, int right = -1);
};

// The heaviest root-to-leaf path (0 for the empty tree).
double mcp_length(const McpTree& tree, const std::vector<double>& class_times);

// Senders in the start-time order of the tree's schedule (every node starts
// when its last child ends; the root ends at the tree length); class members
// are assigned in index order. The EP schedule of this order is no longer
// than the tree (Liu, Kuo, Wang 2009 sec. 3).
std::vector<ProcessorIndex> ep_order_from_mcp_tree(const McpTree& tree, const SenderClasses& classes);

// A reduce plan from a sender order: ep_transfers() (Lemma 1 receivers),
// makespan = the last completion. The caller fills the evidence fields.
MakespanPlan reduce_plan_from_order(const Cluster& cluster, ProcessorIndex root,
                                    const std::vector<ProcessorIndex>& order, std::string algorithm);

// The plan of a DP's optimal tree: checks that the rebuilt tree has length
// `optimum` and that the EP schedule of its order is no longer (else a
// std::logic_error naming `dp_name`), then settles the claims
// (makespan/claims.h) with the proven bound optimum - rounding_slack() and
// `proof`. The caller adds the statistics.
MakespanPlan plan_from_optimal_mcp_tree(const Cluster& cluster, ProcessorIndex root, const McpTree& tree,
                                        const SenderClasses& classes, double optimum, const char* dp_name,
                                        std::string proof);

// Number of distinct prefixes (the empty one included) of the sequences of
// a multiset with these class counts: the size N of the papers' search tree
// over class sequences (Liu, Kuo, Wang 2009 Table 1). As a long double: it overflows
// 64 bits for P ~ 40.
long double class_sequence_tree_size(const std::vector<int>& counts);

}  // namespace hetcoll
