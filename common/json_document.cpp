#include "common/json_document.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <vector>

#include "common/error.h"
#include "common/huge_pages.h"

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

std::string_view SimdjsonTree::type_name(Value v) {
  switch (v.type()) {
    case element_type::ARRAY: return "array";
    case element_type::OBJECT: return "object";
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE: return "number";
    case element_type::STRING: return "string";
    case element_type::BOOL: return "boolean";
    case element_type::NULL_VALUE: return "null";
  }
  return "value";
}

JsonDocument::JsonDocument(std::string_view text, const std::string& origin) : origin_(origin) {
  // The parser's buffers are sized from the text and written once; on huge pages a 49 MB
  // snapshot takes ~1,000 first-touch faults instead of ~52,000 (docs/benchmarks.md). They
  // are allocated here so the advice lands before parse() touches them; the index, tape and
  // string buffer are reached through members simdjson 3.0 leaves public "for benchmarking".
  // The lengths advised are lower bounds of what simdjson allocates.
  const size_t n = text.size();
  padded_.reset(new char[n + simdjson::SIMDJSON_PADDING]);
  advise_huge_pages(padded_.get(), n + simdjson::SIMDJSON_PADDING);
  std::memcpy(padded_.get(), text.data(), n);
  std::memset(padded_.get() + n, 0, simdjson::SIMDJSON_PADDING);
  if (parser_.allocate(n) == simdjson::SUCCESS && parser_.doc.allocate(n) == simdjson::SUCCESS) {
    advise_huge_pages(parser_.implementation->structural_indexes.get(), n * sizeof(uint32_t));
    advise_huge_pages(parser_.doc.tape.get(), n * sizeof(uint64_t));
    advise_huge_pages(parser_.doc.string_buf.get(), n / 3 * 5);
  }
  const simdjson::error_code error = parser_.parse(padded_.get(), n, false).get(root_);
  if (error == simdjson::SUCCESS) return;
  if (auto e = nlohmann_error(text, origin)) throw *e;
  throw InputError(origin, 0, std::string("invalid JSON: ") + simdjson::error_message(error));
}

JsonObject JsonDocument::object() const {
  return JsonObject(root_, [origin = origin_](const std::string& place, const std::string& what) {
    throw InputError(origin, 0, (place.empty() ? "" : place + ": ") + what);
  });
}

}  // namespace ibburn
