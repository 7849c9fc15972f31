#pragma once
// Reading a persisted JSON document fast and strictly: simdjson's DOM parses it (a 49 MB
// fabric snapshot in tens of milliseconds, where nlohmann's tree took seconds), and the
// readers (common/json_reader.h has the rules) name the JSON path of a value that is
// missing, mistyped or out of range ("nodes[3].ports[1].lid: must be an integer") in an
// InputError naming the file, never a default.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "common/json_reader.h"

namespace ibburn {

struct SimdjsonTree {
  using Value = simdjson::dom::element;
  using Root = Value;
  static Value root(Root v) { return v; }
  using Array = simdjson::dom::array;
  static constexpr JsonWording kWording = JsonWording::Document;

  static bool object(Value v) { return v.is_object(); }
  static bool is_array(Value v) { return v.is_array(); }
  static Array array_of(Value v) { return v.get_array().value_unsafe(); }
  static Value element(Value e) { return e; }
  static std::optional<Value> find(Value object, std::string_view key) {
    Value v;
    if (object.get_object().value_unsafe()[key].get(v) != simdjson::SUCCESS) return std::nullopt;
    return v;
  }
  static std::string_view type_name(Value v);

  static std::optional<bool> boolean(Value v) { return read<bool>(v.get_bool()); }
  static std::optional<std::string_view> string(Value v) { return read<std::string_view>(v.get_string()); }
  static std::optional<double> number(Value v) { return read<double>(v.get_double()); }
  static std::optional<int64_t> int64(Value v) { return read<int64_t>(v.get_int64()); }
  static std::optional<uint64_t> uint64(Value v) { return read<uint64_t>(v.get_uint64()); }
  template <class T, class Fail>
  static T convert(Value v, Fail&& fail) = delete;  // the snapshots read scalars only

 private:
  template <class T>
  static std::optional<T> read(simdjson::simdjson_result<T> r) {
    T out;
    if (std::move(r).get(out) != simdjson::SUCCESS) return std::nullopt;
    return out;
  }
};

// One object of a document, and the document's rules.
using JsonObject = JsonReader<SimdjsonTree>;

// A parsed document; keep it alive while its values are read.
class JsonDocument {
 public:
  // A syntax error is an InputError naming the line (nlohmann re-parses the text for a message
  // an editor can jump to; only on failure, so the fast parser stays the only one on success).
  JsonDocument(std::string_view text, const std::string& origin);
  JsonDocument(const JsonDocument&) = delete;  // the values point into the parser
  JsonDocument& operator=(const JsonDocument&) = delete;
  simdjson::dom::element root() const { return root_; }
  // The top object, whose failures are InputError(origin, 0, "path: reason"); "must be an
  // object" when the top level is something else.
  JsonObject object() const;

 private:
  std::string origin_;
  std::unique_ptr<char[]> padded_;  // the text with simdjson's padding, parsed in place
  simdjson::dom::parser parser_;
  simdjson::dom::element root_;
};

}  // namespace ibburn
