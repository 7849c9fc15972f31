#pragma once
// `ibburn topo audit`: the fabric's configuration and security against the site's intent
// (docs/audit.md): partitions.conf, the MTU, where subnet managers may run, M_Key protection.
// Reads the live fabric over Get SMPs only (audit_reads.h), or an ibdiagnet capture
// (audit_capture.h), judges it (audit_checks.h), prints
// the findings and writes them with --json. `ibburn run --partitions` runs the same audit
// before any traffic (audit_fabric).
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "audit/audit_checks.h"
#include "common/finding.h"
#include "topo/fabric.h"
#include "topo/fabric_source.h"

namespace ibburn::audit {

struct PolicyOptions {
  std::string partitions;             // --partitions FILE (opensm's partitions.conf)
  int mtu = 0;                        // --mtu: bytes; 0: the links' own capability only
  std::vector<std::string> sm_hosts;  // --sm-hosts
  bool require_mkey = false;          // --require-mkey
};

// The policy from the options: the partitions file read and parsed (InputError naming its
// file and line), --mtu checked (256..4096, a power of 2).
AuditPolicy load_policy(const PolicyOptions& options);

// The audit of a discovered fabric through its local port; `notes` gets what went unanswered.
std::vector<Finding> audit_fabric(const topo::Fabric& fabric, const topo::MadOptions& mad, const AuditPolicy& policy,
                                  std::vector<std::string>& notes);

struct AuditCommandOptions {
  topo::FabricSource fabric;  // live, or one ibdiagnet output (audit_capture.h)
  PolicyOptions policy;
  std::string json;  // {"findings": [...]}
};

// 0: nothing of warning or worse, 1: findings, 2: bad input (thrown), 3: no fabric reachable.
int audit_command(const AuditCommandOptions& options, std::ostream& out);

}  // namespace ibburn::audit
