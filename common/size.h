#pragma once
#include <cstddef>
#include <string>

namespace ibburn {
// Parses a positive byte count: "65536", "64K"/"64KiB", "1M"/"1MiB", "2G"/"2GiB" (powers
// of two). Throws std::invalid_argument naming the text on anything else, zero included.
std::size_t parse_size(const std::string& text);
}  // namespace ibburn
