// Torus, fat-tree and dragonfly clusters (<cluster topology="TORUS" ...>),
// laid out and routed as SimGrid does (TorusZone, FatTreeZone, DragonflyZone
// and sg_platf.cpp of the SimGrid sources): same links, same names, same
// routing decisions.
//
// Graph shape. Each position of the topology has a junction: a switch node
// for torus positions, fat-tree switches and dragonfly routers (SimGrid's
// routers carry no traffic limit of their own: ports unlimited). When the
// cluster has limiter links (limiter_link="..."), a transit leaves a
// junction through its limiter, so the limiter is crossed once per visit as
// in SimGrid's routes; a host is joined to its first link through its own
// limiter, both ways. Links are nodes (split-duplex: one per direction).
// Every route is a path: host, links and junctions in travel order; the
// links are SimGrid's (the order of a limiter among the links of a route may
// differ from SimGrid's list, which is a set for its network model).
#include <algorithm>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "hetcoll/model/simgrid/simgrid_network.h"

namespace hetcoll::simgrid {
namespace {

// Bounds what a few characters of topo_parameters may ask for.
constexpr unsigned long long kMaxTopologyElements = 20'000'000;

std::vector<unsigned long> parse_numbers(const std::string& text, char separator, std::string_view what) {
  std::vector<unsigned long> numbers;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, separator)) {
    std::size_t used = 0;
    unsigned long value = 0;
    try {
      value = std::stoul(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    while (used < item.size() && (item[used] == ' ' || item[used] == '\t')) ++used;
    if (used == 0 || used != item.size() || value == 0 || value > kMaxTopologyElements) {
      throw std::invalid_argument(fmt::format("{}: \"{}\" is not a positive integer", what, item));
    }
    numbers.push_back(value);
  }
  if (text.empty() || text.back() == separator) numbers.push_back(0);  // an empty item
  if (std::find(numbers.begin(), numbers.end(), 0UL) != numbers.end()) {
    throw std::invalid_argument(fmt::format("{}: an item is empty", what));
  }
  return numbers;
}

// "2;4,4;1,2;1,2" -> its ';'-separated levels.
std::vector<std::string> split_levels(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ';');) parts.push_back(part);
  return parts;
}

unsigned long checked_product(const std::vector<unsigned long>& factors, std::string_view what) {
  unsigned long long product = 1;
  for (unsigned long factor : factors) {
    product *= factor;
    if (product > kMaxTopologyElements) {
      throw std::invalid_argument(fmt::format("{}: more than {} elements", what, kMaxTopologyElements));
    }
  }
  return static_cast<unsigned long>(product);
}

PortModel ports_of(LinkSharing sharing) {
  return sharing == LinkSharing::fatpipe ? PortModel::unlimited : PortModel::one_port;
}

// A link of the topology: one node, or two (up, down) when split-duplex.
struct LinkPair {
  ElementId up = kNoElement;
  ElementId down = kNoElement;
};

LinkPair add_topology_link(Network& network, const ClusterShape& shape, const std::string& name, double bandwidth) {
  if (shape.sharing == LinkSharing::split_duplex) {
    return {network.add_link(name + "_UP", bandwidth, shape.latency, PortModel::one_port),
            network.add_link(name + "_DOWN", bandwidth, shape.latency, PortModel::one_port)};
  }
  ElementId link = network.add_link(name, bandwidth, shape.latency, ports_of(shape.sharing));
  return {link, link};
}

// sg_platf_cluster_create_limiter: "<cluster>_link_<id>_limiter", SHARED.
ElementId add_limiter(Network& network, const ClusterShape& shape, unsigned long id) {
  if (!shape.limiter_bandwidth) return kNoElement;
  return network.add_link(fmt::format("{}_link_{}_limiter", shape.id, id), *shape.limiter_bandwidth, 0.0,
                          PortModel::one_port);
}

// A place where routes turn: the switch, then its limiter on the way out.
struct Junction {
  ElementId node = kNoElement;
  ElementId limiter = kNoElement;
};

// Appends leaving `from` through `link` and arriving at `to`.
void hop(Path& path, const Junction& from, ElementId link, ElementId to) {
  if (from.limiter != kNoElement) path.push_back(from.limiter);
  path.push_back(link);
  path.push_back(to);
}

void add_hop_edges(std::vector<std::pair<ElementId, ElementId>>& edges, const Junction& from, ElementId link,
                   ElementId to) {
  ElementId exit = from.limiter != kNoElement ? from.limiter : from.node;
  if (from.limiter != kNoElement) edges.emplace_back(from.node, from.limiter);
  edges.emplace_back(exit, link);
  edges.emplace_back(link, to);
}

// ---------------------------------------------------------------- torus ---

class TorusRouting final : public TopologyRouting {
 public:
  std::vector<unsigned long> dimensions;
  std::vector<ElementId> hosts;
  std::vector<Junction> junctions;        // by rank
  std::vector<std::vector<LinkPair>> links;  // [rank][dimension]: rank -> its next neighbour

  // TorusZone::get_local_route, dimension by dimension.
  std::optional<Path> route(int source_rank, int destination_rank) const override {
    const auto source = static_cast<unsigned long>(source_rank);
    const auto destination = static_cast<unsigned long>(destination_rank);
    const std::size_t count = dimensions.size();
    std::vector<unsigned long> source_coords(count), target_coords(count);
    unsigned long product = 1;
    for (std::size_t i = 0; i < count; ++i) {
      source_coords[i] = (source / product) % dimensions[i];
      target_coords[i] = (destination / product) % dimensions[i];
      product *= dimensions[i];
    }
    Path path{hosts[source], junctions[source].node};
    unsigned long current = source;
    std::size_t steps = 0;
    while (current != destination) {
      if (++steps > hosts.size() * count + 1) return std::nullopt;  // cannot happen; guards the loop
      unsigned long next = current;
      ElementId link = kNoElement;
      unsigned long dimension_product = 1;
      for (std::size_t j = 0; j < count; ++j) {
        const unsigned long size = dimensions[j];
        if ((current / dimension_product) % size != (destination / dimension_product) % size) {
          bool right = (target_coords[j] > source_coords[j] && target_coords[j] <= source_coords[j] + size / 2) ||
                       (source_coords[j] > size / 2 && (source_coords[j] + size / 2) % size >= target_coords[j]);
          if (right) {
            next = (current / dimension_product) % size == size - 1 ? current + dimension_product - dimension_product * size
                                                                   : current + dimension_product;
            link = links[current][j].up;
          } else {
            next = (current / dimension_product) % size == 0 ? current - dimension_product + dimension_product * size
                                                             : current - dimension_product;
            link = links[next][j].down;
          }
          break;
        }
        dimension_product *= size;
      }
      hop(path, junctions[current], link, junctions[next].node);
      current = next;
    }
    if (junctions[destination].limiter != kNoElement) path.push_back(junctions[destination].limiter);
    path.push_back(hosts[destination]);
    return path;
  }
};

}  // namespace

std::size_t topology_host_count(std::string_view topology, const std::string& parameters) {
  if (topology == "TORUS") return checked_product(parse_numbers(parameters, ',', "the torus dimensions"), "torus");
  if (topology == "FAT_TREE") {
    std::vector<std::string> parts = split_levels(parameters);
    if (parts.size() != 4) {
      throw std::invalid_argument(
          "a fat tree is \"levels;children per level;parents per level;links per level\", e.g. \"2;4,4;1,2;1,2\"");
    }
    auto levels = parse_numbers(parts[0], ',', "the number of levels");
    auto children = parse_numbers(parts[1], ',', "the children counts");
    if (levels.size() != 1 || children.size() != levels[0]) {
      throw std::invalid_argument(fmt::format("{} levels but {} children counts", levels[0], children.size()));
    }
    return checked_product(children, "fat tree");
  }
  if (topology == "DRAGONFLY") {
    std::vector<std::string> parts = split_levels(parameters);
    if (parts.size() != 4) {
      throw std::invalid_argument(
          "a dragonfly is \"groups,blue links;chassis,black links;routers,green links;nodes\", e.g. \"3,4;4,3;5,1;2\"");
    }
    std::vector<unsigned long> sizes;
    for (int k = 0; k < 3; ++k) {
      auto pair = parse_numbers(parts[static_cast<std::size_t>(k)], ',', "a dragonfly level");
      if (pair.size() != 2) throw std::invalid_argument("each of the first three dragonfly levels has 2 numbers");
      sizes.push_back(pair[0]);
    }
    auto nodes = parse_numbers(parts[3], ',', "the nodes per blade");
    if (nodes.size() != 1) throw std::invalid_argument("the last dragonfly level has 1 number");
    sizes.push_back(nodes[0]);
    return checked_product(sizes, "dragonfly");
  }
  throw std::invalid_argument(fmt::format("unknown topology \"{}\"", topology));
}

TopologyLayout build_torus(Network& network, const ClusterShape& shape, const std::vector<ElementId>& hosts) {
  auto routing = std::make_shared<TorusRouting>();
  routing->dimensions = parse_numbers(shape.parameters, ',', "the torus dimensions");
  routing->hosts = hosts;
  const std::size_t count = hosts.size();
  TopologyLayout layout;
  for (std::size_t rank = 0; rank < count; ++rank) {
    Junction junction;
    junction.node = network.add_switch(fmt::format("{}_switch_{}", shape.id, rank));
    junction.limiter = add_limiter(network, shape, rank);
    routing->junctions.push_back(junction);
  }
  // TorusZone::create_torus_links: each rank links to its next neighbour in every dimension.
  routing->links.assign(count, {});
  for (std::size_t rank = 0; rank < count; ++rank) {
    unsigned long product = 1;
    for (unsigned long size : routing->dimensions) {
      unsigned long neighbour = (rank / product) % size == size - 1 ? rank - (size - 1) * product : rank + product;
      routing->links[rank].push_back(add_topology_link(
          network, shape, fmt::format("{}_link_from_{}_to_{}", shape.id, rank, neighbour), shape.bandwidth));
      product *= size;
    }
  }
  for (std::size_t rank = 0; rank < count; ++rank) {
    const Junction& junction = routing->junctions[rank];
    ElementId exit = junction.limiter != kNoElement ? junction.limiter : junction.node;
    layout.edges.emplace_back(hosts[rank], junction.node);
    if (junction.limiter != kNoElement) layout.edges.emplace_back(junction.node, junction.limiter);
    layout.edges.emplace_back(exit, hosts[rank]);
    unsigned long product = 1;
    for (std::size_t j = 0; j < routing->dimensions.size(); ++j) {
      unsigned long size = routing->dimensions[j];
      unsigned long neighbour = (rank / product) % size == size - 1 ? rank - (size - 1) * product : rank + product;
      // Rightwards over this rank's link, leftwards (from the neighbour) over its down half.
      add_hop_edges(layout.edges, junction, routing->links[rank][j].up, routing->junctions[neighbour].node);
      add_hop_edges(layout.edges, routing->junctions[neighbour], routing->links[rank][j].down, junction.node);
      product *= size;
    }
  }
  layout.routing = std::move(routing);
  return layout;
}

// ------------------------------------------------------------- fat tree ---

namespace {

struct FatTreeNode;

struct FatTreeLink {
  FatTreeNode* up_node = nullptr;    // the parent
  FatTreeNode* down_node = nullptr;  // the child
  LinkPair link;
};

struct FatTreeNode {
  unsigned long id = 0;
  unsigned int level = 0;
  unsigned int position = 0;
  std::vector<unsigned int> label;
  std::vector<FatTreeLink*> parents;
  std::vector<FatTreeLink*> children;
  Junction junction;
};

class FatTreeRouting final : public TopologyRouting {
 public:
  unsigned int levels = 0;
  std::vector<unsigned int> children_per_node, parents_per_node, ports_lower_level;
  std::vector<std::unique_ptr<FatTreeNode>> nodes;  // compute nodes first, by rank
  std::vector<std::unique_ptr<FatTreeLink>> links;
  std::vector<ElementId> hosts;

  bool is_in_sub_tree(const FatTreeNode* root, const FatTreeNode* node) const {
    if (root->level <= node->level) return false;
    for (unsigned int i = 0; i < node->level; ++i) {
      if (root->label[i] != node->label[i]) return false;
    }
    for (unsigned int i = root->level; i < levels; ++i) {
      if (root->label[i] != node->label[i]) return false;
    }
    return true;
  }

  // FatTreeZone::get_local_route: up by d-mod-k, then down (the inner loop
  // keeps scanning the children of the node it has just moved to, as SimGrid's does).
  std::optional<Path> route(int source_rank, int destination_rank) const override {
    const FatTreeNode* source = nodes[static_cast<std::size_t>(source_rank)].get();
    const FatTreeNode* destination = nodes[static_cast<std::size_t>(destination_rank)].get();
    Path path{hosts[static_cast<std::size_t>(source_rank)]};
    const FatTreeNode* current = source;
    std::size_t steps = 0;
    while (!is_in_sub_tree(current, destination)) {
      if (++steps > 2 * levels + 2) return std::nullopt;
      unsigned long d = destination->position;
      for (unsigned int i = 0; i < current->level; ++i) d /= parents_per_node[i];
      unsigned long k = static_cast<unsigned long>(parents_per_node[current->level]) * ports_lower_level[current->level];
      d %= k;
      const FatTreeLink* link = current->parents[d];
      if (!link) return std::nullopt;
      hop(path, current->junction, link->link.up, link->up_node->junction.node);
      current = link->up_node;
    }
    while (current != destination) {
      if (++steps > 4 * levels + 4) return std::nullopt;
      const FatTreeNode* before = current;
      unsigned long d = source->position % ports_lower_level[current->level - 1];
      for (unsigned long i = d * children_per_node[current->level - 1]; i < current->children.size(); ++i) {
        if (i % children_per_node[current->level - 1] == destination->label[current->level - 1]) {
          const FatTreeLink* link = current->children[i];
          hop(path, current->junction, link->link.down, link->down_node->junction.node);
          current = link->down_node;
          if (current->level == 0) break;
        }
      }
      if (current == before) return std::nullopt;
    }
    // The destination's junction is its limiter (or itself).
    if (destination->junction.limiter != kNoElement) {
      path.back() = destination->junction.limiter;
      path.push_back(hosts[static_cast<std::size_t>(destination_rank)]);
    }
    return path;
  }
};

}  // namespace

TopologyLayout build_fat_tree(Network& network, const ClusterShape& shape, const std::vector<ElementId>& hosts) {
  std::vector<std::string> parts = split_levels(shape.parameters);  // four levels, checked by topology_host_count
  auto routing = std::make_shared<FatTreeRouting>();
  routing->levels = static_cast<unsigned int>(parse_numbers(parts.at(0), ',', "the number of levels").at(0));
  auto as_uint = [](const std::vector<unsigned long>& values) {
    return std::vector<unsigned int>(values.begin(), values.end());
  };
  routing->children_per_node = as_uint(parse_numbers(parts.at(1), ',', "the children counts"));
  routing->parents_per_node = as_uint(parse_numbers(parts.at(2), ',', "the parent counts"));
  routing->ports_lower_level = as_uint(parse_numbers(parts.at(3), ',', "the link counts"));
  const unsigned int levels = routing->levels;
  for (const auto* vector : {&routing->children_per_node, &routing->parents_per_node, &routing->ports_lower_level}) {
    if (vector->size() != levels) {
      throw std::invalid_argument(fmt::format("{} levels but a list of {} numbers", levels, vector->size()));
    }
  }
  routing->hosts = hosts;
  // Compute nodes (FatTreeZone::add_processing_node): id = position = rank.
  for (std::size_t rank = 0; rank < hosts.size(); ++rank) {
    auto node = std::make_unique<FatTreeNode>();
    node->id = rank;
    node->position = static_cast<unsigned int>(rank);
    node->parents.assign(static_cast<std::size_t>(routing->parents_per_node[0]) * routing->ports_lower_level[0],
                         nullptr);
    node->label.assign(levels, 0);
    node->junction.node = hosts[rank];
    node->junction.limiter = add_limiter(network, shape, rank);
    routing->nodes.push_back(std::move(node));
  }
  // FatTreeZone::generate_switches.
  std::vector<unsigned long> nodes_by_level(levels + 1, 0);
  nodes_by_level[0] = hosts.size();
  unsigned long long switches = 0;
  for (unsigned int i = 0; i < levels; ++i) {
    unsigned long long in_level = 1;
    for (unsigned int j = 0; j <= i; ++j) in_level *= routing->parents_per_node[j];
    for (unsigned int j = i + 1; j < levels; ++j) in_level *= routing->children_per_node[j];
    switches += in_level;
    if (in_level > kMaxTopologyElements || switches > kMaxTopologyElements) {
      throw std::invalid_argument(fmt::format("more than {} switches", kMaxTopologyElements));
    }
    nodes_by_level[i + 1] = static_cast<unsigned long>(in_level);
  }
  unsigned long k = 2 * hosts.size();
  for (unsigned int i = 0; i < levels; ++i) {
    for (unsigned long j = 0; j < nodes_by_level[i + 1]; ++j) {
      --k;
      auto node = std::make_unique<FatTreeNode>();
      node->id = k;
      node->level = i + 1;
      node->position = static_cast<unsigned int>(j);
      node->children.assign(static_cast<std::size_t>(routing->children_per_node[i]) * routing->ports_lower_level[i],
                            nullptr);
      if (i != levels - 1) {
        node->parents.assign(
            static_cast<std::size_t>(routing->parents_per_node[i + 1]) * routing->ports_lower_level[i + 1], nullptr);
      }
      node->label.assign(levels, 0);
      node->junction.node = network.add_switch(fmt::format("{}_switch_{}_{}", shape.id, i + 1, j));
      node->junction.limiter = add_limiter(network, shape, k);
      routing->nodes.push_back(std::move(node));
    }
  }
  // FatTreeZone::generate_labels.
  {
    std::vector<unsigned int> max_label(levels), current_label(levels);
    std::size_t index = 0;
    for (unsigned int i = 0; i <= levels; ++i) {
      current_label.assign(levels, 0);
      for (unsigned int j = 0; j < levels; ++j) {
        max_label[j] = j + 1 > i ? routing->children_per_node[j] : routing->parents_per_node[j];
      }
      for (unsigned long j = 0; j < nodes_by_level[i]; ++j) {
        routing->nodes[index]->label = current_label;
        bool remainder = true;
        unsigned int position = 0;
        while (remainder && position < levels) {
          ++current_label[position];
          if (current_label[position] >= max_label[position]) {
            current_label[position] = 0;
            remainder = true;
            ++position;
          } else {
            position = 0;
            remainder = false;
          }
        }
        ++index;
      }
    }
  }
  // FatTreeZone::connect_node_to_parents, in node order.
  unsigned long unique_id = 0;
  std::vector<std::size_t> level_start(levels + 2, 0);
  for (unsigned int i = 0; i <= levels; ++i) level_start[i + 1] = level_start[i] + nodes_by_level[i];
  for (unsigned int level = 0; level < levels; ++level) {
    for (std::size_t n = level_start[level]; n < level_start[level + 1]; ++n) {
      FatTreeNode* child = routing->nodes[n].get();
      for (std::size_t p = level_start[level + 1]; p < level_start[level + 2]; ++p) {
        FatTreeNode* parent = routing->nodes[p].get();
        bool related = true;
        for (unsigned int i = 0; i < levels; ++i) {
          if (parent->label[i] != child->label[i] && i + 1 != parent->level) related = false;
        }
        if (!related) continue;
        for (unsigned int j = 0; j < routing->ports_lower_level[level]; ++j) {
          unsigned long parent_port = child->label[level] + j * routing->children_per_node[level];
          unsigned long child_port = parent->label[level] + j * routing->parents_per_node[level];
          auto link = std::make_unique<FatTreeLink>();
          link->up_node = parent;
          link->down_node = child;
          link->link = add_topology_link(
              network, shape, fmt::format("link_from_{}_{}_{}", child->id, parent->id, unique_id++), shape.bandwidth);
          if (parent_port >= parent->children.size() || child_port >= child->parents.size()) {
            throw std::invalid_argument("the fat-tree parameters give a port beyond a switch's ports");
          }
          parent->children[parent_port] = link.get();
          child->parents[child_port] = link.get();
          routing->links.push_back(std::move(link));
        }
      }
    }
  }
  TopologyLayout layout;
  for (std::size_t rank = 0; rank < hosts.size(); ++rank) {
    const Junction& junction = routing->nodes[rank]->junction;
    if (junction.limiter != kNoElement) {
      layout.edges.emplace_back(hosts[rank], junction.limiter);
      layout.edges.emplace_back(junction.limiter, hosts[rank]);
    }
  }
  for (const auto& link : routing->links) {
    // Up: leave the child (a host leaves through its limiter, as a switch does).
    const Junction& child = link->down_node->junction;
    const Junction& parent = link->up_node->junction;
    add_hop_edges(layout.edges, child, link->link.up, parent.node);
    // Down: towards a host, arrive at its limiter when it has one.
    ElementId arrival = child.node;
    if (link->down_node->level == 0 && child.limiter != kNoElement) arrival = child.limiter;
    add_hop_edges(layout.edges, parent, link->link.down, arrival);
  }
  layout.routing = std::move(routing);
  return layout;
}

// ------------------------------------------------------------ dragonfly ---

namespace {

struct DragonflyRouter {
  unsigned int group = 0, chassis = 0, blade = 0;
  Junction junction;
  std::vector<LinkPair> node_links;   // by node of the blade: up = node -> router, down = router -> node
  std::vector<ElementId> green_links;  // by blade of the chassis: leaving this router
  std::vector<ElementId> black_links;  // by chassis of the group
  ElementId blue_link = kNoElement;
};

class DragonflyRouting final : public TopologyRouting {
 public:
  unsigned int groups = 0, chassis = 0, blades = 0, nodes_per_blade = 0;
  std::vector<DragonflyRouter> routers;
  std::vector<ElementId> hosts;
  std::vector<ElementId> host_limiters;

  std::size_t router_index(unsigned long group, unsigned long chassis_index, unsigned long blade) const {
    return group * (static_cast<std::size_t>(chassis) * blades) + chassis_index * blades + blade;
  }

  // DragonflyZone::get_local_route (minimal routing), with SimGrid's choice
  // of the router a step arrives at.
  std::optional<Path> route(int source_rank, int destination_rank) const override {
    auto coords = [&](unsigned long rank) {
      std::array<unsigned long, 4> c{};
      c[0] = rank / (static_cast<unsigned long>(chassis) * blades * nodes_per_blade);
      rank %= static_cast<unsigned long>(chassis) * blades * nodes_per_blade;
      c[1] = rank / (static_cast<unsigned long>(blades) * nodes_per_blade);
      rank %= static_cast<unsigned long>(blades) * nodes_per_blade;
      c[2] = rank / nodes_per_blade;
      c[3] = rank % nodes_per_blade;
      return c;
    };
    const auto mine = coords(static_cast<unsigned long>(source_rank));
    const auto target = coords(static_cast<unsigned long>(destination_rank));
    const DragonflyRouter* my_router = &routers[router_index(mine[0], mine[1], mine[2])];
    const DragonflyRouter* target_router = &routers[router_index(target[0], target[1], target[2])];
    const DragonflyRouter* current = my_router;
    Path path{hosts[static_cast<std::size_t>(source_rank)]};
    ElementId source_limiter = host_limiters[static_cast<std::size_t>(source_rank)];
    if (source_limiter != kNoElement) path.push_back(source_limiter);
    path.push_back(my_router->node_links[mine[3]].up);
    path.push_back(my_router->junction.node);
    auto step = [&](ElementId link, const DragonflyRouter* next) {
      hop(path, current->junction, link, next->junction.node);
      current = next;
    };
    if (target_router != my_router) {
      if (target_router->group != current->group) {
        if (current->blade != target[0]) {
          step(current->green_links[target[0]], &routers[router_index(mine[0], mine[1], target[0])]);
        }
        if (current->chassis != 0) step(current->black_links[0], &routers[router_index(mine[0], 0, target[0])]);
        step(current->blue_link, &routers[router_index(target[0], 0, mine[0])]);
      }
      if (target_router->blade != current->blade) {
        step(current->green_links[target[2]], &routers[router_index(target[0], 0, target[2])]);
      }
      if (target_router->chassis != current->chassis) step(current->black_links[target[1]], target_router);
    }
    if (target_router->junction.limiter != kNoElement) path.push_back(target_router->junction.limiter);
    path.push_back(target_router->node_links[target[3]].down);
    ElementId destination_limiter = host_limiters[static_cast<std::size_t>(destination_rank)];
    if (destination_limiter != kNoElement) path.push_back(destination_limiter);
    path.push_back(hosts[static_cast<std::size_t>(destination_rank)]);
    return path;
  }
};

}  // namespace

TopologyLayout build_dragonfly(Network& network, const ClusterShape& shape, const std::vector<ElementId>& hosts) {
  std::vector<std::string> parts = split_levels(shape.parameters);  // four levels, checked by topology_host_count
  auto pair = [&](std::size_t k) { return parse_numbers(parts.at(k), ',', "a dragonfly level"); };
  auto blue = pair(0), black = pair(1), green = pair(2);
  auto routing = std::make_shared<DragonflyRouting>();
  routing->groups = static_cast<unsigned int>(blue.at(0));
  routing->chassis = static_cast<unsigned int>(black.at(0));
  routing->blades = static_cast<unsigned int>(green.at(0));
  routing->nodes_per_blade = static_cast<unsigned int>(parse_numbers(parts.at(3), ',', "the nodes per blade").at(0));
  routing->hosts = hosts;
  const unsigned long blue_count = blue.at(1), black_count = black.at(1), green_count = green.at(1);
  if (routing->groups > routing->blades) {
    // Router b of chassis 0 in each group holds the blue link to group b.
    throw std::invalid_argument(fmt::format("{} groups need at least as many routers (blades) per chassis, got {}",
                                            routing->groups, routing->blades));
  }
  for (std::size_t rank = 0; rank < hosts.size(); ++rank) routing->host_limiters.push_back(add_limiter(network, shape, rank));
  // DragonflyZone::generate_routers: limiter ids count down from 2 x hosts.
  unsigned long limiter_id = 2 * hosts.size();
  for (unsigned int g = 0; g < routing->groups; ++g) {
    for (unsigned int c = 0; c < routing->chassis; ++c) {
      for (unsigned int b = 0; b < routing->blades; ++b) {
        DragonflyRouter router;
        router.group = g;
        router.chassis = c;
        router.blade = b;
        router.junction.node = network.add_switch(fmt::format("{}_router_{}_{}_{}", shape.id, g, c, b));
        if (shape.limiter_bandwidth) router.junction.limiter = add_limiter(network, shape, --limiter_id);
        router.green_links.assign(routing->blades, kNoElement);
        router.black_links.assign(routing->chassis, kNoElement);
        routing->routers.push_back(std::move(router));
      }
    }
  }
  // DragonflyZone::generate_links: names and link multiplicities as SimGrid's.
  unsigned long unique_id = 0;
  const std::size_t router_count = routing->routers.size();
  for (std::size_t i = 0; i < router_count; ++i) {
    for (unsigned int n = 0; n < routing->nodes_per_blade; ++n) {
      routing->routers[i].node_links.push_back(add_topology_link(
          network, shape, fmt::format("local_link_from_router_{}_to_node_{}_{}", i, n, unique_id++), shape.bandwidth));
    }
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(routing->groups) * routing->chassis; ++i) {
    for (unsigned int j = 0; j < routing->blades; ++j) {
      for (unsigned int k = j + 1; k < routing->blades; ++k) {
        LinkPair link = add_topology_link(
            network, shape,
            fmt::format("green_link_in_chassis_{}_between_routers_{}_and_{}_{}", i % routing->chassis, j, k, unique_id++),
            shape.bandwidth * static_cast<double>(green_count));
        routing->routers[i * routing->blades + j].green_links[k] = link.up;
        routing->routers[i * routing->blades + k].green_links[j] = link.down;
      }
    }
  }
  for (unsigned int i = 0; i < routing->groups; ++i) {
    for (unsigned int j = 0; j < routing->chassis; ++j) {
      for (unsigned int k = j + 1; k < routing->chassis; ++k) {
        for (unsigned int l = 0; l < routing->blades; ++l) {
          LinkPair link = add_topology_link(
              network, shape,
              fmt::format("black_link_in_group_{}_between_chassis_{}_and_{}_blade_{}_{}", i, j, k, l, unique_id++),
              shape.bandwidth * static_cast<double>(black_count));
          routing->routers[routing->router_index(i, j, l)].black_links[k] = link.up;
          routing->routers[routing->router_index(i, k, l)].black_links[j] = link.down;
        }
      }
    }
  }
  for (unsigned int i = 0; i < routing->groups; ++i) {
    for (unsigned int j = i + 1; j < routing->groups; ++j) {
      std::size_t router_i = static_cast<std::size_t>(i) * routing->blades * routing->chassis + j;
      std::size_t router_j = static_cast<std::size_t>(j) * routing->blades * routing->chassis + i;
      LinkPair link = add_topology_link(
          network, shape,
          fmt::format("blue_link_between_group_{}_and_{}_routers_{}_and_{}_{}", i, j, router_i, router_j, unique_id++),
          shape.bandwidth * static_cast<double>(blue_count));
      routing->routers[router_i].blue_link = link.up;
      routing->routers[router_j].blue_link = link.down;
    }
  }
  // Edges: the hops minimal routing can take, including SimGrid's arrival at
  // chassis 0 after a green link taken inside the destination group.
  TopologyLayout layout;
  for (std::size_t rank = 0; rank < hosts.size(); ++rank) {
    unsigned long blade_index = rank / routing->nodes_per_blade;
    unsigned int n = static_cast<unsigned int>(rank % routing->nodes_per_blade);
    const DragonflyRouter& router = routing->routers[blade_index];
    Junction host{hosts[rank], routing->host_limiters[rank]};
    add_hop_edges(layout.edges, host, router.node_links[n].up, router.junction.node);
    ElementId arrival = host.limiter != kNoElement ? host.limiter : host.node;
    add_hop_edges(layout.edges, router.junction, router.node_links[n].down, arrival);
    if (arrival != host.node) layout.edges.emplace_back(arrival, host.node);
  }
  for (const DragonflyRouter& router : routing->routers) {
    for (unsigned int b = 0; b < routing->blades; ++b) {
      if (router.green_links[b] == kNoElement) continue;
      add_hop_edges(layout.edges, router.junction, router.green_links[b],
                    routing->routers[routing->router_index(router.group, router.chassis, b)].junction.node);
      add_hop_edges(layout.edges, router.junction, router.green_links[b],
                    routing->routers[routing->router_index(router.group, 0, b)].junction.node);
    }
    for (unsigned int c = 0; c < routing->chassis; ++c) {
      if (router.black_links[c] == kNoElement) continue;
      add_hop_edges(layout.edges, router.junction, router.black_links[c],
                    routing->routers[routing->router_index(router.group, c, router.blade)].junction.node);
    }
    if (router.blue_link != kNoElement) {
      // Router (g, 0, b) is linked to group b, arriving at (b, 0, g).
      add_hop_edges(layout.edges, router.junction, router.blue_link,
                    routing->routers[routing->router_index(router.blade, 0, router.group)].junction.node);
    }
  }
  layout.routing = std::move(routing);
  return layout;
}

}  // namespace hetcoll::simgrid
