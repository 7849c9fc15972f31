#include "burn/tcp_transport.h"
#include "burn/transport.h"
#include "common/error.h"

#ifdef IBBURN_HAVE_VERBS_TRANSPORT
#include "burn/verbs/verbs_transport_factory.h"
#endif

namespace ibburn::burn {

std::vector<std::string> transport_names() {
#ifdef IBBURN_HAVE_VERBS_TRANSPORT
  return {"tcp", "verbs"};
#else
  return {"tcp"};
#endif
}

std::unique_ptr<Transport> make_transport(const std::string& name, const TransportOptions& o) {
  if (name == "tcp") return make_tcp_transport(o);
  if (name == "verbs") {
#ifdef IBBURN_HAVE_VERBS_TRANSPORT
    return verbs::make_verbs_transport(o);
#else
    throw EnvironmentError("the verbs transport is not built into this ibburn (burn/verbs/ missing at build time)");
#endif
  }
  throw Error(kExitInput, "unknown transport \"" + name + "\" (tcp, verbs)");
}

}  // namespace ibburn::burn
