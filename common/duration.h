#pragma once
#include <chrono>
#include <string>

namespace ibburn {
// Parses "500ms", "10s", "5m", "1h", "1h30m" or a bare number of seconds.
// Throws std::invalid_argument naming the text on anything else.
std::chrono::milliseconds parse_duration(const std::string& text);
}  // namespace ibburn
