#pragma once
// Error thresholds in ibqueryerrors' file format: `Name=value` per line, names exactly as
// the MAD fields (SymbolErrorCounter, ...), '#' comments. A counter is flagged when its
// value is strictly greater than its threshold, as ibqueryerrors does.
#include <array>
#include <cstdint>
#include <string>

#include "counters/port_counters.h"

namespace ibburn::counters {

class Thresholds {
 public:
  // The values infiniband-diags suggests in its shipped error_thresholds file.
  static Thresholds defaults();
  // Every threshold 0 (what ibqueryerrors uses without a file).
  static Thresholds zero() { return Thresholds(); }
  // A file replaces all defaults: counters it does not name get 0, as in ibqueryerrors, so
  // the same file gives both tools the same verdicts. Malformed lines and unknown names
  // throw InputError(origin:line).
  static Thresholds parse(const std::string& text, const std::string& origin);
  static Thresholds load(const std::string& path);

  uint64_t get(Counter c) const { return limit_.at(static_cast<size_t>(c)); }
  void set(Counter c, uint64_t v) { limit_.at(static_cast<size_t>(c)) = v; }
  bool exceeded(Counter c, uint64_t value) const { return value > get(c); }
  std::string to_text() const;  // loadable again

 private:
  std::array<uint64_t, kErrorCounterCount> limit_{};
};

}  // namespace ibburn::counters
