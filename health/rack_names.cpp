#include "health/rack_names.h"

#include <cctype>
#include <string_view>

namespace ibburn::health {
namespace {

// `prefix` then one or more digits, the whole component, case-insensitive.
bool is_numbered(std::string_view part, std::string_view prefix) {
  if (part.size() <= prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(part[i])) != prefix[i]) return false;
  for (size_t i = prefix.size(); i < part.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(part[i]))) return false;
  return true;
}

}  // namespace

NodePlace place_of(const std::string& name) {
  NodePlace p;
  std::string_view rest = name;
  while (!rest.empty()) {
    const size_t cut = rest.find_first_of("-_. ;:/");
    const std::string_view part = rest.substr(0, cut);
    rest = cut == std::string_view::npos ? std::string_view() : rest.substr(cut + 1);
    if (p.row.empty() && is_numbered(part, "row"))
      p.row = part;
    else if (p.rack.empty() && (is_numbered(part, "rack") || is_numbered(part, "r")))
      p.rack = part;
  }
  // Rack numbers may restart in each row.
  if (!p.rack.empty() && !p.row.empty()) p.rack = p.row + " " + p.rack;
  return p;
}

}  // namespace ibburn::health
