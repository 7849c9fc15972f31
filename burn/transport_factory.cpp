#include "burn/tcp_transport.h"
#include "burn/transport.h"
#include "burn/verbs/verbs_transport_factory.h"
#include "common/error.h"

namespace ibburn::burn {

std::unique_ptr<Transport> make_transport(TransportKind kind, const TransportOptions& o) {
  switch (kind) {
    case TransportKind::Tcp: return make_tcp_transport(o);
    case TransportKind::Verbs: return verbs::make_verbs_transport(o);
    case TransportKind::Sim: break;
  }
  throw Error(kExitInput, "transport \"sim\" is the fluid model on one process: give --fabric, without mpirun");
}

}  // namespace ibburn::burn
