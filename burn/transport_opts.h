#pragma once
// `--opt KEY=VALUE` (repeatable): the transport knobs that end up in TransportOptions::extra
// (burn/transport.h); each transport validates the keys it reads.
#include <map>
#include <string>
#include <vector>

namespace ibburn::burn {

// Splits each "KEY=VALUE" at its first '='; a later KEY replaces an earlier one. Throws
// Error(kExitInput) naming the first entry without a key or an '='.
std::map<std::string, std::string> parse_transport_opts(const std::vector<std::string>& entries);

}  // namespace ibburn::burn
