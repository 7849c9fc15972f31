#include "common/duration.h"

#include <cctype>
#include <stdexcept>

namespace ibburn {

std::chrono::milliseconds parse_duration(const std::string& text) {
  auto bad = [&] { return std::invalid_argument("invalid duration '" + text + "' (use e.g. 500ms, 10s, 5m, 1h)"); };
  if (text.empty()) throw bad();
  double total_ms = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
    if (start == i) throw bad();
    double value = std::stod(text.substr(start, i - start));
    std::string unit;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) unit += text[i++];
    if (unit.empty()) {
      if (start != 0 || i != text.size()) throw bad();  // bare number only on its own
      unit = 's';
    }
    if (unit == "ms")
      total_ms += value;
    else if (unit == "s")
      total_ms += value * 1e3;
    else if (unit == "m" || unit == "min")
      total_ms += value * 60e3;
    else if (unit == "h")
      total_ms += value * 3600e3;
    else if (unit == "d")
      total_ms += value * 86400e3;
    else
      throw bad();
  }
  return std::chrono::milliseconds(static_cast<long long>(total_ms + 0.5));
}

}  // namespace ibburn
