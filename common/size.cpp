#include "common/size.h"

#include <cctype>
#include <stdexcept>

namespace ibburn {

std::size_t parse_size(const std::string& text) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = used ? text.substr(used) : "";
  const unsigned long long mult = unit.empty()                   ? 1
                                  : unit == "K" || unit == "KiB" ? 1ull << 10
                                  : unit == "M" || unit == "MiB" ? 1ull << 20
                                  : unit == "G" || unit == "GiB" ? 1ull << 30
                                                                 : 0;
  // stoull accepts a leading '-' (it wraps) and spaces: only digits may start a size.
  if (used == 0 || mult == 0 || v == 0 || !std::isdigit(static_cast<unsigned char>(text[0])) || v > ~0ull / mult)
    throw std::invalid_argument("\"" + text + "\" is not a size (e.g. 65536, 1M, 8MiB)");
  return static_cast<std::size_t>(v * mult);
}

}  // namespace ibburn
