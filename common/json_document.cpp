#include "common/json_document.h"

#include <cstring>
#include <cstdint>
#include <vector>

#include "common/error.h"
#include "common/huge_pages.h"
#include "common/json_parse.h"

namespace ibburn {

using simdjson::dom::element_type;

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
  // nlohmann re-parses refused text for a message naming the line (and an overflowing
  // number's field); only on failure, so the fast parser stays the only one on success.
  if (auto e = json_error(text, origin)) throw *e;
  throw InputError(origin, 0, std::string("invalid JSON: ") + simdjson::error_message(error));
}

JsonObject JsonDocument::object() const {
  return JsonObject(root_, [origin = origin_](const std::string& place, const std::string& what) {
    throw InputError(origin, 0, (place.empty() ? "" : place + ": ") + what);
  });
}

}  // namespace ibburn
