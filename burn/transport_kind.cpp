#include "burn/transport_kind.h"

#include "common/error.h"

namespace ibburn::burn {

const char* to_string(TransportKind t) {
  switch (t) {
    case TransportKind::Tcp: return "tcp";
    case TransportKind::Verbs: return "verbs";
    case TransportKind::Sim: return "sim";
  }
  return "tcp";
}

TransportKind transport_from_string(const std::string& name) {
  for (TransportKind t : {TransportKind::Tcp, TransportKind::Verbs, TransportKind::Sim})
    if (name == to_string(t)) return t;
  throw Error(kExitInput, "unknown transport \"" + name + "\" (tcp, verbs, sim)");
}

}  // namespace ibburn::burn
