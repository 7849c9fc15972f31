#include "counters/thresholds.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "common/error.h"
#include "common/file_io.h"
#include "common/text.h"

namespace ibburn::counters {
namespace {

std::string known_names() {
  std::string out;
  for (size_t i = 0; i < kErrorCounterCount; ++i) out += (i ? ", " : "") + std::string(counter_name(counter_at(i)));
  return out;
}

}  // namespace

Thresholds Thresholds::defaults() {
  Thresholds t;
  t.set(Counter::SymbolErrorCounter, 10);
  t.set(Counter::LinkErrorRecoveryCounter, 10);
  t.set(Counter::LinkDownedCounter, 10);
  t.set(Counter::PortRcvErrors, 10);
  t.set(Counter::PortRcvRemotePhysicalErrors, 100);
  t.set(Counter::PortRcvSwitchRelayErrors, 100);
  t.set(Counter::PortXmitDiscards, 100);
  t.set(Counter::PortXmitConstraintErrors, 100);
  t.set(Counter::PortRcvConstraintErrors, 100);
  t.set(Counter::LocalLinkIntegrityErrors, 10);
  t.set(Counter::ExcessiveBufferOverrunErrors, 10);
  t.set(Counter::VL15Dropped, 100);
  t.set(Counter::PortXmitWait, 1000);
  return t;
}

Thresholds Thresholds::parse(const std::string& text, const std::string& origin) {
  Thresholds t;
  std::istringstream in(text);
  std::string raw;
  int line_no = 0;
  while (std::getline(in, raw)) {
    ++line_no;
    std::string line(trim(raw));
    if (line.empty() || line[0] == '#') continue;
    size_t eq = line.find('=');
    if (eq == std::string::npos) throw InputError(origin, line_no, "expected Name=value, got '" + line + "'");
    std::string name(trim(line.substr(0, eq)));
    std::string value(trim(line.substr(eq + 1)));
    auto c = counter_from_name(name);
    if (!c || !is_error_counter(*c))
      throw InputError(origin, line_no, "unknown counter '" + name + "' (known: " + known_names() + ")");
    // Same number syntax as ibqueryerrors (strtoul base 0: decimal, 0x hex, 0 octal), but
    // the whole value must be a non-negative number.
    errno = 0;
    char* end = nullptr;
    unsigned long long v = value.empty() || value[0] == '-' ? 0 : std::strtoull(value.c_str(), &end, 0);
    if (value.empty() || value[0] == '-' || errno != 0 || !end || *end != '\0')
      throw InputError(origin, line_no, "threshold for " + name + " is not a non-negative number: '" + value + "'");
    t.set(*c, v);
  }
  return t;
}

Thresholds Thresholds::load(const std::string& path) { return parse(read_file(path), path); }

std::string Thresholds::to_text() const {
  std::string out;
  for (size_t i = 0; i < kErrorCounterCount; ++i)
    out += std::string(counter_name(counter_at(i))) + "=" + std::to_string(limit_[i]) + "\n";
  return out;
}

}  // namespace ibburn::counters
