#include "burn/transport_opts.h"

#include "common/error.h"

namespace ibburn::burn {

std::map<std::string, std::string> parse_transport_opts(const std::vector<std::string>& entries) {
  std::map<std::string, std::string> out;
  for (const auto& kv : entries) {
    const auto eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) throw Error(kExitInput, "--opt expects KEY=VALUE, got \"" + kv + "\"");
    out[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return out;
}

}  // namespace ibburn::burn
