#pragma once
// Strict reading of nlohmann::json objects (common/json_reader.h has the rules): the control
// protocol's messages, summary.json, results.jsonl and findings. Values are pointers into the
// caller's tree, which must outlive the reader.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/json_reader.h"

namespace ibburn {

struct NlohmannTree {
  using Value = const nlohmann::json*;
  using Root = const nlohmann::json&;
  static Value root(Root j) { return &j; }
  using Array = const nlohmann::json&;
  static constexpr JsonWording kWording = JsonWording::Message;

  static bool object(Value v) { return v->is_object(); }
  static bool is_array(Value v) { return v->is_array(); }
  static Array array_of(Value v) { return *v; }
  static Value element(const nlohmann::json& e) { return &e; }
  static std::optional<Value> find(Value object, std::string_view key) {
    const auto it = object->find(key);
    if (it == object->end()) return std::nullopt;
    return &*it;
  }
  static std::string_view type_name(Value v) { return v->type_name(); }

  static std::optional<bool> boolean(Value v) {
    if (!v->is_boolean()) return std::nullopt;
    return v->get<bool>();
  }
  static std::optional<std::string_view> string(Value v) {
    if (!v->is_string()) return std::nullopt;
    return std::string_view(v->get_ref<const std::string&>());
  }
  static std::optional<double> number(Value v) {
    if (!v->is_number()) return std::nullopt;
    return v->get<double>();
  }
  static std::optional<int64_t> int64(Value v) {
    if (v->is_number_unsigned() && v->get<uint64_t>() > uint64_t{INT64_MAX}) return std::nullopt;
    if (!v->is_number_integer()) return std::nullopt;
    return v->get<int64_t>();
  }
  static std::optional<uint64_t> uint64(Value v) {
    if (!v->is_number_unsigned()) return std::nullopt;
    return v->get<uint64_t>();
  }
  // Containers and types with their own from_json; nlohmann's message names what broke.
  template <class T, class Fail>
  static T convert(Value v, Fail&& fail) {
    try {
      return v->get<T>();
    } catch (const nlohmann::json::exception& e) {
      fail(e.what());
    }
    throw std::logic_error("JsonReader: the fail handler returned");
  }
};

using JsonFields = JsonReader<NlohmannTree>;

}  // namespace ibburn
