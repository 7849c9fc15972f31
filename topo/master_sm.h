#pragma once
// Is the subnet manager still there: the local port's PortInfo names the master SM's LID,
// and SMInfo from that LID says who it is and that it is master. Two SMPs, so a job can ask
// after every stage: LIDs and forwarding tables outlive a dead SM, so traffic and the
// counters sweeps go on, and only this question tells that nothing will reroute any more.
#include <cstdint>
#include <optional>
#include <string>

#include "topo/fabric.h"
#include "topo/mad_window.h"

namespace ibburn::topo {

inline constexpr uint16_t kAttrSmInfo = 0x0020;

struct MasterSm {
  uint16_t lid = 0;
  uint64_t guid = 0;
  int state = 0;  // SMInfo SMState: 3 = master
  int priority = 0;
  bool master() const { return state == 3; }
};

struct SmProbe {
  std::optional<MasterSm> sm;  // set when the SM at the local port's MasterSMLID answered
  std::string error;           // why not
};

// Pure: the SMP payloads (MadResult::data) of PortInfo and SMInfo.
uint16_t master_sm_lid(const std::array<uint8_t, kMadDataSize>& port_info);
MasterSm decode_sm_info(const std::array<uint8_t, kMadDataSize>& sm_info, uint16_t lid);

// Asks through `window`; never throws for an SM that does not answer.
SmProbe probe_master_sm(MadWindow& window);

// The subnet the local port is in: its GidPrefix and master SM (PortInfo, then SMInfo), for
// telling planes apart. `source` names it ("live", "live:mlx5_3:1"). Never throws.
Subnet probe_subnet(MadWindow& window, std::string source);

}  // namespace ibburn::topo
