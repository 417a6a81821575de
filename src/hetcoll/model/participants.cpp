#include "hetcoll/model/participants.h"

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

Platform with_participants(const Platform& platform, const std::vector<std::string>& ids,
                           std::string_view parameter) {
  if (ids.empty()) throw InputError(fmt::format("{}: the list is empty (name at least one host)", parameter));
  std::vector<char> chosen(static_cast<size_t>(platform.size()), 0);
  for (const std::string& id : ids) {
    auto found = platform.find(id);
    if (!found) {
      throw InputError(fmt::format("{}: no node \"{}\" (give an id or an index 0..{})", parameter, id,
                                   platform.size() - 1));
    }
    const PlatformNode& node = platform.node(*found);
    if (node.kind != NodeKind::host) {
      throw InputError(fmt::format("{}: \"{}\" is a {}, not a host: only hosts can take part", parameter, node.id,
                                   to_string(node.kind)));
    }
    if (chosen[static_cast<size_t>(*found)]) {
      throw InputError(fmt::format("{}: \"{}\" is listed twice", parameter, node.id));
    }
    chosen[static_cast<size_t>(*found)] = 1;
  }
  std::vector<PlatformNode> nodes = platform.nodes();
  for (size_t v = 0; v < nodes.size(); ++v) {
    if (nodes[v].kind == NodeKind::host) nodes[v].router = !chosen[v];
  }
  return Platform(std::move(nodes), platform.edges(), parameter, platform.routing());
}

}  // namespace hetcoll
