// Choosing which hosts of a platform take part in a collective.
//
// STABLE INTERFACE: with_participants() is what `--participants P,...` calls.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hetcoll/model/platform.h"

namespace hetcoll {

// A copy of `platform` in which the listed nodes (ids, or indices as
// Platform::find accepts them) are the participants and every other host
// becomes a router: it still forwards messages, but holds no data and is
// never a source or a target. Nodes, edges and routes keep their indices.
// Throws InputError naming `parameter` (e.g. "participants") for an empty
// list, an unknown id, an id listed twice, or a network element (a node of
// kind router or link) listed as a participant.
Platform with_participants(const Platform& platform, const std::vector<std::string>& ids,
                           std::string_view parameter = "participants");

}  // namespace hetcoll
