#pragma once
// The TCP transport: each flow end opens `streams` sockets to its peer; every message carries
// a header (magic, stage, flow, stream, sequence, length) the receiver validates, so stale,
// truncated or misdirected traffic is counted as an error instead of as bandwidth.
#include <memory>

#include "burn/transport.h"

namespace ibburn::burn {

// Options read: bind (IPv4 address or interface name; empty = 127.0.0.1), message_size
// (default 1 MiB), verify, extra["sockbuf"] (socket buffer bytes, default 4 MiB; 0 = kernel
// autotuning). Throws EnvironmentError when the address or interface does not exist.
std::unique_ptr<Transport> make_tcp_transport(const TransportOptions& options);

}  // namespace ibburn::burn
