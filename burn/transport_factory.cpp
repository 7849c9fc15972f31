#include "burn/tcp_transport.h"
#include "burn/transport.h"
#include "burn/verbs/verbs_transport_factory.h"
#include "common/error.h"

namespace ibburn::burn {

std::unique_ptr<Transport> make_transport(const std::string& name, const TransportOptions& o) {
  if (name == "tcp") return make_tcp_transport(o);
  if (name == "verbs") return verbs::make_verbs_transport(o);
  throw Error(kExitInput, "unknown transport \"" + name + "\" (tcp, verbs)");
}

}  // namespace ibburn::burn
