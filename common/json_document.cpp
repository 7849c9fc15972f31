#include "common/json_document.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/error.h"

namespace ibburn {
namespace {

using simdjson::dom::element_type;

// nlohmann's message for text simdjson refused: the line of a syntax error, or the overflow
// nlohmann reports without a position. Empty when nlohmann accepts the text.
std::optional<InputError> nlohmann_error(std::string_view text, const std::string& origin) {
  try {
    const nlohmann::json parsed = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    size_t end = std::min(e.byte, text.size());
    int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(end), '\n'));
    std::string msg = e.what();
    if (size_t colon = msg.find("column "); colon != std::string::npos)
      if (size_t sep = msg.find(": ", colon); sep != std::string::npos) msg = msg.substr(sep + 2);
    return InputError(origin, line, "invalid JSON: " + msg);
  } catch (const nlohmann::json::exception& e) {
    // Number overflow (out_of_range.406) carries no position.
    std::string msg = e.what();
    if (size_t end = msg.find("] "); end != std::string::npos) msg = msg.substr(end + 2);
    if (msg.size() > 160) msg = msg.substr(0, 157) + "...";
    return InputError(origin, 0, "invalid JSON: " + msg);
  }
  return std::nullopt;
}

}  // namespace

std::string JsonPlace::path() const {
  std::vector<const JsonPlace*> chain;
  for (const JsonPlace* p = this; p && p->parent; p = p->parent) chain.push_back(p);
  std::string out;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if ((*it)->key.empty()) {
      out += "[" + std::to_string((*it)->index) + "]";
    } else {
      if (!out.empty()) out += '.';
      out += (*it)->key;
    }
  }
  return out;
}

JsonObject::JsonObject(simdjson::dom::element value, const JsonPlace& place, const std::string& origin)
    : place_(place), origin_(origin) {
  if (value.get_object().get(object_) != simdjson::SUCCESS) fail("", "must be an object");
}

void JsonObject::fail(std::string_view key, const std::string& reason) const {
  std::string path = key.empty() ? place_.path() : place_.member(key).path();
  throw InputError(origin_, 0, (path.empty() ? "" : path + ": ") + reason);
}

bool JsonObject::has(std::string_view key) const { return object_[key].error() == simdjson::SUCCESS; }

simdjson::dom::element JsonObject::value(std::string_view key) const {
  simdjson::dom::element v;
  if (object_[key].get(v) != simdjson::SUCCESS) fail(key, "missing");
  return v;
}

JsonObject JsonObject::object(std::string_view key, const JsonPlace& place) const {
  return JsonObject(value(key), place, origin_);
}

simdjson::dom::array JsonObject::array(std::string_view key) const {
  simdjson::dom::array a;
  if (value(key).get_array().get(a) != simdjson::SUCCESS) fail(key, "must be an array");
  return a;
}

std::string_view JsonObject::string(std::string_view key) const {
  std::string_view s;
  if (value(key).get_string().get(s) != simdjson::SUCCESS) fail(key, "must be a string");
  return s;
}

std::optional<std::string_view> JsonObject::optional_string(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return string(key);
}

int64_t JsonObject::integer(std::string_view key, int64_t min, int64_t max) const {
  simdjson::dom::element v = value(key);
  int64_t n = 0;
  if (v.type() == element_type::UINT64) {
    n = INT64_MAX;  // only values above INT64_MAX come as unsigned
  } else if (v.get_int64().get(n) != simdjson::SUCCESS) {
    fail(key, "must be an integer");
  }
  if (n < min || n > max)
    fail(key, std::to_string(n) + " is outside " + std::to_string(min) + ".." + std::to_string(max));
  return n;
}

std::optional<int64_t> JsonObject::optional_integer(std::string_view key, int64_t min, int64_t max) const {
  if (!has(key)) return std::nullopt;
  return integer(key, min, max);
}

uint64_t JsonObject::unsigned_integer(std::string_view key) const {
  uint64_t n = 0;
  if (value(key).get_uint64().get(n) != simdjson::SUCCESS) fail(key, "must be a non-negative integer");
  return n;
}

bool JsonObject::boolean(std::string_view key) const {
  bool b = false;
  if (value(key).get_bool().get(b) != simdjson::SUCCESS) fail(key, "must be true or false");
  return b;
}

std::optional<bool> JsonObject::optional_boolean(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return boolean(key);
}

JsonDocument::JsonDocument(std::string_view text, const std::string& origin) {
  const simdjson::error_code error = parser_.parse(text.data(), text.size()).get(root_);
  if (error == simdjson::SUCCESS) return;
  if (auto e = nlohmann_error(text, origin)) throw *e;
  throw InputError(origin, 0, std::string("invalid JSON: ") + simdjson::error_message(error));
}

}  // namespace ibburn
