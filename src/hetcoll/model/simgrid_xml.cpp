// Placeholder until the SimGrid importer lands.
#include "hetcoll/model/simgrid_xml.h"

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

Platform parse_simgrid_xml(std::string_view, std::string_view source_name) {
  throw InputError(fmt::format("{}: SimGrid XML import is not available yet", source_name));
}

double parse_simgrid_quantity(std::string_view text, std::string_view, std::string_view where) {
  throw InputError(fmt::format("{}: cannot parse \"{}\"", where, text));
}

}  // namespace hetcoll
