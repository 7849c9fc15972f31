#pragma once
// Live discovery: a directed-route walk of the fabric from the local port, one hop level
// at a time, every SMP of a level in flight together through the MAD window
// (topo/mad_window.h). libibnetdisc keeps two SMPs outstanding, so over a slow path (or
// ibsim) it waits for round trips; this walk asks the same questions (NodeInfo behind each
// trained port, NodeDescription, a switch's SwitchInfo (base or enhanced port 0), PortInfo
// of every switch port and of each CA port reached, Mellanox ExtendedPortInfo where FDR10
// may hide) and decodes the answers the same way
// (topo/smp_fabric.h), but a cable already known from its other end is not asked again.
#include <cstddef>
#include <string>

#include "topo/fabric.h"
#include "topo/mad_window.h"

namespace ibburn::topo {

struct DiscoverOptions {
  MadOptions mad;     // -C/-P, per-MAD timeout and retries (the sweeps and LFT reads use them too)
  int hop_limit = 0;  // nodes at most this many hops away; 0 = unlimited
};

struct DiscoverStats {
  size_t smps = 0;      // SMPs sent, retries included
  size_t timeouts = 0;  // attempts that went unanswered
  int levels = 0;       // hop levels walked
};

// "live:mlx5_3:1": how --fabric names a discovery through one port (one plane's).
std::string live_source_name(const MadOptions& mad);

// Discovers the fabric reachable from the local port. Ports that report a physical link
// whose peer could not be reached (no answer, or beyond the hop limit) get
// Port::peer_unreached. Records the subnet (Fabric::subnets(): prefix, master SM). Throws EnvironmentError when no port
// can be opened or the local port does not answer.
Fabric discover_live(const DiscoverOptions& options, DiscoverStats* stats = nullptr);

}  // namespace ibburn::topo
