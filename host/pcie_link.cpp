#include "host/pcie_link.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace ibburn::host {

std::optional<double> parse_pcie_speed(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  double v = std::strtod(begin, &end);
  if (end == begin || !(v > 0)) return std::nullopt;
  while (*end == ' ') ++end;
  if (std::string(end).rfind("GT/s", 0) != 0) return std::nullopt;
  return v;
}

std::optional<int> parse_pcie_width(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  long v = std::strtol(begin, &end, 10);
  if (end == begin || v <= 0 || v > 32) return std::nullopt;
  while (*end == ' ' || *end == '\n') ++end;
  if (*end) return std::nullopt;
  return static_cast<int>(v);
}

std::string pcie_generation(double gts) {
  static const double kRates[] = {2.5, 5.0, 8.0, 16.0, 32.0, 64.0};
  for (int i = 0; i < 6; ++i)
    if (std::fabs(gts - kRates[i]) < 0.01) return "Gen" + std::to_string(i + 1);
  return "";
}

std::string describe_link(std::optional<double> gts, std::optional<int> width) {
  std::string s;
  if (gts) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GT/s", *gts);
    s = buf;
  } else {
    s = "? GT/s";
  }
  s += " x" + (width ? std::to_string(*width) : std::string("?"));
  if (gts && !pcie_generation(*gts).empty()) s += " (" + pcie_generation(*gts) + ")";
  return s;
}

}  // namespace ibburn::host
