#pragma once
// Text helpers shared by the line-based file readers (fabric dumps, wiring CSV, thresholds,
// host expectations).
#include <string_view>

namespace ibburn {

// `s` without leading and trailing ASCII whitespace (space, \t, \r, \n, \v, \f).
std::string_view trim(std::string_view s);

}  // namespace ibburn
