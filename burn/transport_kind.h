#pragma once
// How the burn moves bytes: a transport between ranks (TCP sockets, RDMA WRITE over verbs), or
// the fluid model on one process (`sim`, fluid/simulated_burn). Chosen once, from --transport.
#include <string>

namespace ibburn::burn {

enum class TransportKind { Tcp, Verbs, Sim };

// "tcp", "verbs", "sim": the --transport values and the name results.jsonl and summary.json record.
const char* to_string(TransportKind t);
// Throws Error(kExitInput) naming the value and the choices.
TransportKind transport_from_string(const std::string& name);

}  // namespace ibburn::burn
