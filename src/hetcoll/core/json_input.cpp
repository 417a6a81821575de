#include "hetcoll/core/json_input_internal.h"

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hetcoll/core/error.h"

namespace hetcoll {

namespace {

using nlohmann::json;

// nlohmann's DOM builder, told every key as it is read so that a key given
// twice in one object is refused. (nlohmann's parser callbacks would do the
// same, but their parser scans the enclosing array at the end of every
// object it holds, which makes reading an array of n objects O(n^2): a
// plan of 10^5 transfers took 18 s.)
class DuplicateKeyRejectingBuilder : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  DuplicateKeyRejectingBuilder(json& result, std::string_view source_name)
      : json_sax_dom_parser(result, /*allow_exceptions=*/true), source_name_(source_name) {}

  bool start_object(std::size_t elements) {
    ++depth_;
    if (open_objects_.size() < depth_) open_objects_.emplace_back();
    open_objects_[depth_ - 1].clear();
    return json_sax_dom_parser::start_object(elements);
  }

  bool end_object() {
    --depth_;
    return json_sax_dom_parser::end_object();
  }

  bool key(std::string& name) {
    auto& seen = open_objects_[depth_ - 1];
    // Objects of plans and platforms have a handful of keys: a linear scan
    // beats hashing; larger objects are rare.
    if (std::find(seen.begin(), seen.end(), name) != seen.end()) {
      throw InputError(fmt::format("{}: {}: the key appears twice in the same object (give each key once)",
                                   source_name_, name));
    }
    seen.push_back(name);
    return json_sax_dom_parser::key(name);
  }

 private:
  std::string_view source_name_;
  // The keys seen so far in each object being read, outermost first; only
  // the first `depth_` are open (the rest are kept to reuse their memory).
  std::vector<std::vector<std::string>> open_objects_;
  std::size_t depth_ = 0;
};

}  // namespace

nlohmann::json parse_json_rejecting_duplicate_keys(std::string_view text, std::string_view source_name) {
  json result;
  DuplicateKeyRejectingBuilder builder(result, source_name);
  json::sax_parse(text.begin(), text.end(), &builder);
  return result;
}

}  // namespace hetcoll
