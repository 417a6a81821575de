#include "hetcoll/model/cluster_json_reader_internal.h"

#include <utility>

#include "hetcoll/core/error.h"
#include "hetcoll/core/json_input_internal.h"

#if HETCOLL_WITH_SIMDJSON
#include <simdjson.h>
#endif

namespace hetcoll {

#if HETCOLL_WITH_SIMDJSON

static_assert(kJsonReadPadding >= simdjson::SIMDJSON_PADDING);

namespace {

namespace ondemand = simdjson::ondemand;

// Walks a value the cluster reader ignores ("description") so that
// it is validated as fully as the reference reader validates it.
bool skip_value(ondemand::value value, int depth) {
  if (depth > 64) return false;
  ondemand::json_type type;
  if (value.type().get(type)) return false;
  switch (type) {
    case ondemand::json_type::object: {
      ondemand::object object;
      if (value.get_object().get(object)) return false;
      for (auto field_result : object) {
        ondemand::field field;
        std::string_view key;
        if (std::move(field_result).get(field) || field.unescaped_key().get(key) || has_control_character(key)) return false;
        if (!skip_value(field.value(), depth + 1)) return false;
      }
      return true;
    }
    case ondemand::json_type::array: {
      ondemand::array array;
      if (value.get_array().get(array)) return false;
      for (auto element : array) {
        ondemand::value item;
        if (std::move(element).get(item) || !skip_value(item, depth + 1)) return false;
      }
      return true;
    }
    case ondemand::json_type::number: {
      double number;
      return !value.get_double().get(number);
    }
    case ondemand::json_type::string: {
      std::string_view text;
      return !value.get_string().get(text) && !has_control_character(text);
    }
    case ondemand::json_type::boolean: {
      bool flag;
      return !value.get_bool().get(flag);
    }
    case ondemand::json_type::null: {
      bool null = false;
      return !value.is_null().get(null) && null;
    }
  }
  return false;
}

// Reads {"id": "...", "t": number, "description": ...} into the two columns.
bool read_processor(ondemand::value value, PackedIds& ids, std::vector<double>& times) {
  ondemand::object object;
  if (value.get_object().get(object)) return false;
  bool have_id = false, have_time = false, have_description = false;
  for (auto field_result : object) {
    ondemand::field field;
    std::string_view key;
    if (std::move(field_result).get(field) || field.unescaped_key().get(key)) return false;
    if (key == "id" && !have_id) {
      std::string_view id;
      if (field.value().get_string().get(id) || has_control_character(id)) return false;  // numeric ids: reference
      ids.push_back(id);
      have_id = true;
    } else if (key == "t" && !have_time) {
      double time;
      if (field.value().get_double().get(time)) return false;
      times.push_back(time);
      have_time = true;
    } else if (key == "description" && !have_description) {
      if (!skip_value(field.value(), 1)) return false;
      have_description = true;
    } else {
      return false;  // unknown or repeated field
    }
  }
  return have_id && have_time;
}

std::optional<Cluster> read_cluster(std::string_view text, std::string_view source_name) {
  ondemand::parser parser;
  ondemand::document document;
  simdjson::padded_string_view padded(text.data(), text.size(), text.size() + kJsonReadPadding);
  if (parser.iterate(padded).get(document)) return std::nullopt;
  ondemand::object root;
  if (document.get_object().get(root)) return std::nullopt;
  PackedIds ids;
  std::vector<double> times;
  bool have_model = false, have_processors = false, have_description = false;
  for (auto field_result : root) {
    ondemand::field field;
    std::string_view key;
    if (std::move(field_result).get(field) || field.unescaped_key().get(key)) return std::nullopt;
    if (key == "model" && !have_model) {
      std::string_view model;
      if (field.value().get_string().get(model) || model != "cluster") return std::nullopt;
      have_model = true;
    } else if (key == "processors" && !have_processors) {
      ondemand::array processors;
      if (field.value().get_array().get(processors)) return std::nullopt;
      // A cluster file spends about 25 bytes per processor: reserve once.
      ids.reserve(text.size() / 24, text.size() / 3);
      times.reserve(text.size() / 24);
      for (auto element : processors) {
        ondemand::value processor;
        if (std::move(element).get(processor) || !read_processor(processor, ids, times)) return std::nullopt;
      }
      have_processors = true;
    } else if (key == "description" && !have_description) {
      if (!skip_value(field.value(), 1)) return std::nullopt;
      have_description = true;
    } else {
      // "units" included: the reference reader checks and keeps the time unit.
      return std::nullopt;
    }
  }
  // Nothing may follow the root object: simdjson reports the end of the
  // document as OUT_OF_BOUNDS, and any trailing token as a location.
  const char* trailing = nullptr;
  if (!have_model || !have_processors || ids.empty() ||
      document.current_location().get(trailing) != simdjson::OUT_OF_BOUNDS) {
    return std::nullopt;
  }
  try {
    return Cluster::with_packed_ids(std::move(ids), std::move(times), source_name);
  } catch (const InputError&) {
    return std::nullopt;  // the reference reader words the message
  }
}

}  // namespace

std::optional<Cluster> read_cluster_json_fast(std::string_view text, std::string_view source_name) {
  return read_cluster(text, source_name);
}

#else

std::optional<Cluster> read_cluster_json_fast(std::string_view, std::string_view) { return std::nullopt; }

#endif

}  // namespace hetcoll
