#pragma once
// The fabric's configuration and security audit over plain data (what the ports' PortInfo and
// P_Key tables and the SMs' SMInfo answered, filled in by the step that reads them): P_Key
// tables against partitions.conf, partition enforcement, M_Keys, the subnet managers, MTUs and
// VLs. One cause, one finding: ports that differ the same way (one partition's P_Key, one
// switch kind's M_Key, one tier's MTU) are told in one finding naming them all.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "audit/partitions.h"
#include "common/finding.h"

namespace ibburn::audit {

// One port the SM configured: an HCA's, or a switch's (port 0 holds a switch's M_Key).
struct AuditPort {
  std::string node_name;  // node-name-map name or description: "host001 mlx5_0", "leaf01"
  uint64_t node_guid = 0, port_guid = 0;
  int port = 0;
  bool is_switch = false;
  std::vector<uint16_t> pkeys;   // its P_Key table, empty slots dropped
  std::optional<uint64_t> mkey;  // nullopt: not read
  std::optional<int> mkey_protect_bits;
  int mtu_cap = 0, mtu_active = 0;      // bytes, 256..4096; 0: the port is down
  int vl_cap = 0, vls_operational = 0;  // data VLs (1, 2, 4, 8, 15); 0: the port is down
  bool partition_enforcement_inbound = false, partition_enforcement_outbound = false;  // switch ports
  std::string peer_node_name;                                                          // empty: nothing cabled
  int peer_port = 0;
  bool peer_is_switch = false;
  int tier = 0;             // 0 HCA, 1 leaf, 2 spine, 3 core
  std::string switch_kind;  // switches' grouping: a device id or a model ("MQM9700")
};

// One subnet manager that answered SMInfo.
struct AuditSm {
  std::string node_name;  // its node's name, its host the first word
  uint64_t port_guid = 0;
  int priority = 0;
  int state = 0;        // SMInfo's SMState: 0 not active, 1 discovering, 2 standby, 3 master
  uint64_t sm_key = 0;  // as SMInfo gave it: 0 to an asker without the key (the audit holds none)
};

// opensm's SM_Key unless sm_key is set (opensm.conf).
inline constexpr uint64_t kOpensmDefaultSmKey = 1;

struct AuditPolicy {
  std::optional<Partitions> partitions;  // none: the P_Key tables are not checked
  std::optional<int> mtu;                // bytes: the MTU every link should run
  std::vector<std::string> sm_hosts;     // empty: any host may run an SM
  bool require_mkey = false;
  bool allow_both_pkeys = false;  // opensm's option of that name (pkey_rules.h)
};

std::vector<Finding> audit(const std::vector<AuditPort>& ports, const std::vector<AuditSm>& sms,
                           const AuditPolicy& policy);

}  // namespace ibburn::audit
