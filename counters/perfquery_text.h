#pragma once
// perfquery's text output: blocks headed `# Port counters: Lid L port P ...` or
// `# Port extended counters: ...` (and other PerfMgt attributes), then
// `Name:.....value` lines. Lets counters captured on real clusters be judged offline and
// checks our field names against the real tool's.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "counters/port_counters.h"

namespace ibburn::counters {

struct PerfqueryBlock {
  std::string attribute;  // "Port counters", "Port extended counters", ...
  uint16_t lid = 0;
  int port = 0;
  int line = 0;                                          // of the header
  std::vector<std::pair<std::string, uint64_t>> fields;  // in file order
};

// Throws InputError(origin:line) on a line that is neither a header, a field nor blank.
std::vector<PerfqueryBlock> parse_perfquery_text(const std::string& text, const std::string& origin);

// The counters of a "Port counters" or "Port extended counters" block; fields that are not
// counters (PortSelect, CounterSelect...) are skipped. Extended blocks give 64-bit values.
CounterValues counters_from_perfquery(const PerfqueryBlock& block);

}  // namespace ibburn::counters
