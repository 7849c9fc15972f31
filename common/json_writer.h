#pragma once
// Writing persisted JSON documents directly as text: building a nlohmann tree for 24k ports or
// 70k nodes first cost seconds, so writers append to one string and only strings are escaped.
#include <string>
#include <string_view>

namespace ibburn {

// `s` as a JSON string literal, quotes included. Bytes that are not valid UTF-8 become U+FFFD
// (node descriptions come from the fabric, and a JSON reader must accept what we write).
void append_json_string(std::string& out, std::string_view s);

}  // namespace ibburn
