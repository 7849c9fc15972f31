#include "host/expectations.h"

#include <cstdlib>
#include <sstream>

#include "common/error.h"
#include "common/text.h"

namespace ibburn::host {

namespace {
int parse_count(const std::string& v, const std::string& file, int line, const std::string& key) {
  char* end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || n < 0 || n > 4096) throw InputError(file, line, key + " must be a count, got '" + v + "'");
  return static_cast<int>(n);
}
}  // namespace

std::optional<double> parse_rate_gbps(const std::string& text) {
  const char* begin = text.c_str();
  char* end = nullptr;
  double v = std::strtod(begin, &end);
  if (end == begin || !(v > 0)) return std::nullopt;
  return v;
}

Expectations parse_expectations(const std::string& text, const std::string& file) {
  Expectations e;
  std::istringstream in(text);
  std::string raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    std::string s(trim(raw.substr(0, raw.find('#'))));
    if (s.empty()) continue;
    size_t eq = s.find('=');
    if (eq == std::string::npos) throw InputError(file, line, "expected key=value, got '" + s + "'");
    std::string key(trim(s.substr(0, eq))), value(trim(s.substr(eq + 1)));
    if (value.empty()) throw InputError(file, line, key + " has no value");
    if (key == "gpus") {
      e.gpus = parse_count(value, file, line, key);
    } else if (key == "hcas") {
      e.hcas = parse_count(value, file, line, key);
    } else if (key == "rate") {
      e.rate_gbps = parse_rate_gbps(value);
      if (!e.rate_gbps) throw InputError(file, line, "rate must be Gb/s like 400, got '" + value + "'");
    } else if (key == "fw") {
      e.fw = value;
    } else if (key == "link_layer") {
      if (value != "InfiniBand" && value != "Ethernet")
        throw InputError(file, line, "link_layer must be InfiniBand or Ethernet, got '" + value + "'");
      e.link_layer = value;
    } else if (key == "max_distance") {
      auto d = distance_from_string(value);
      if (!d) throw InputError(file, line, "max_distance must be PIX, PXB, PHB, NODE or SYS, got '" + value + "'");
      e.max_distance = *d;
    } else {
      throw InputError(file, line, "unknown key '" + key + "' (known: gpus, hcas, rate, fw, link_layer, max_distance)");
    }
  }
  return e;
}

}  // namespace ibburn::host
