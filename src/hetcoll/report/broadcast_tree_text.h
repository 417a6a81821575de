// A broadcast tree of a platform graph as text for people: hosts only, each
// under the host it receives from, with the links and routers its slices
// cross ("Ginette via links 3, 5 (narrowest: link 5, 27.9 MB/s)"), instead
// of the tree's graph edges between network elements.
#pragma once

#include <string>

#include "hetcoll/model/platform.h"
#include "hetcoll/plan/broadcast_tree.h"

namespace hetcoll {

// One line per host, indented as a tree from the source ("├── ", "└── ");
// every line ends with a newline. Hosts the tree does not reach are not
// listed. O(tree edges + route lengths).
std::string broadcast_tree_hosts_text(const Platform& platform, const BroadcastTree& tree);

// The same tree as Graphviz DOT: hosts only, the source on top, each edge
// labelled with the links its slices cross (route_links_label: "link 145
// (2.58 MB/s, 410 µs)", long routes shortened; the whole route in the
// tooltip). `title` is the drawing's caption.
std::string broadcast_tree_hosts_dot(const Platform& platform, const BroadcastTree& tree, const std::string& title);

}  // namespace hetcoll
