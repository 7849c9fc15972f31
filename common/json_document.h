#pragma once
// Reading a persisted JSON document fast and strictly. simdjson's DOM parses it (a 49 MB
// fabric snapshot in tens of milliseconds, where nlohmann's tree took seconds); every accessor
// names the JSON path of a value that is missing, mistyped or out of range
// ("nodes[3].ports[1].lid: must be an integer") in an InputError naming the file, never a
// default. Optional fields are asked for as optional, so the reader says which ones may be absent.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <simdjson.h>

namespace ibburn {

// Where a value sits: its parent's place and its key or index. Rendered only on failure, so a
// reader pays nothing per field for naming it.
struct JsonPlace {
  const JsonPlace* parent = nullptr;
  std::string_view key;  // empty: an array element at `index`, or the root without parent
  size_t index = 0;

  std::string path() const;  // "nodes[3].ports[1]"; "" for the root
  JsonPlace member(std::string_view k) const { return {this, k, 0}; }
  JsonPlace element(size_t i) const { return {this, {}, i}; }
};

// One object of the document and its place.
class JsonObject {
 public:
  // Fails "must be an object" when `value` is not one.
  JsonObject(simdjson::dom::element value, const JsonPlace& place, const std::string& origin);

  bool has(std::string_view key) const;
  simdjson::dom::element value(std::string_view key) const;  // "missing" when absent
  JsonObject object(std::string_view key, const JsonPlace& place) const;
  simdjson::dom::array array(std::string_view key) const;
  std::string_view string(std::string_view key) const;
  std::optional<std::string_view> optional_string(std::string_view key) const;
  int64_t integer(std::string_view key, int64_t min, int64_t max) const;
  std::optional<int64_t> optional_integer(std::string_view key, int64_t min, int64_t max) const;
  uint64_t unsigned_integer(std::string_view key) const;
  bool boolean(std::string_view key) const;
  std::optional<bool> optional_boolean(std::string_view key) const;

  // InputError(origin, 0, "path.key: reason"); an empty key names the object itself.
  [[noreturn]] void fail(std::string_view key, const std::string& reason) const;
  const JsonPlace& place() const { return place_; }
  const std::string& origin() const { return origin_; }
  simdjson::dom::object members() const { return object_; }

 private:
  simdjson::dom::object object_;
  const JsonPlace& place_;
  const std::string& origin_;
};

// A parsed document; keep it alive while its values are read.
class JsonDocument {
 public:
  // A syntax error is an InputError naming the line (nlohmann re-parses the text for a message
  // an editor can jump to; only on failure, so the fast parser stays the only one on success).
  JsonDocument(std::string_view text, const std::string& origin);
  JsonDocument(const JsonDocument&) = delete;  // the values point into the parser
  JsonDocument& operator=(const JsonDocument&) = delete;
  simdjson::dom::element root() const { return root_; }

 private:
  simdjson::dom::parser parser_;
  simdjson::dom::element root_;
};

}  // namespace ibburn
