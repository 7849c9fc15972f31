#pragma once
// Parsing a JSON text read from a file or a peer with nlohmann, where every failure is bad
// input: an InputError naming the origin, the line and, for a number out of range, the field
// ("stages[2].gbps: number '1e999' is out of range"), never nlohmann's bare exception
// (whose out_of_range.406 carries no position and reached the CLI as an internal error).
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/error.h"

namespace ibburn {

// The parsed text. `first_line` is the line of the text's first character in its file (a
// JSON Lines reader passes the line it is on).
nlohmann::json parse_json(std::string_view text, const std::string& origin, int first_line = 1);

// Why nlohmann refuses the text, as parse_json throws it; nullopt when the text parses.
std::optional<InputError> json_error(std::string_view text, const std::string& origin, int first_line = 1);

}  // namespace ibburn
