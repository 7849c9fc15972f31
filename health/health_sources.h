#pragma once
// The vendor files `ibburn health` reads, parsed, and how they become the checks' inputs.
// A file's kind comes from its name (`*.db_csv`, `*.cables`, `*.net_dump_ext`, `*.json` for mlxlink) or, for
// ibswinfo's `*.out`-style text, from its first line (a `=` rule); a `.json` without a
// "result" member is not mlxlink's. Pure: the caller reads.
#include <string>
#include <vector>

#include "common/finding.h"
#include "health/ber_check.h"
#include "health/cables_text.h"
#include "health/diag_nodes.h"
#include "health/firmware_check.h"
#include "health/ibswinfo_text.h"
#include "health/mlxlink_json.h"
#include "health/net_dump_ext.h"
#include "health/switch_hardware_check.h"
#include "health/temperature_check.h"

namespace ibburn::topo {
class NodeNameMap;
}

namespace ibburn::health {

enum class SourceKind { None, DbCsv, Cables, NetDumpExt, Ibswinfo, Mlxlink };

// The kind of the file at `path` with this text; None when it is none of them.
SourceKind source_kind(const std::string& path, const std::string& text);

struct HealthSources {
  std::vector<DiagNode> nodes;             // every db_csv's
  std::vector<CableModule> cable_modules;  // every ibdiagnet2.cables'
  std::vector<SwitchInfo> switches;        // ibswinfo, one per file
  std::vector<MlxlinkPort> links;          // mlxlink, one per file (its module's port_name: the file)
  std::vector<PortPhy> phy;                // every ibdiagnet2.net_dump_ext's ports
  std::vector<DiagLink> cables;            // every db_csv's LINKS: each port's peer
  size_t files = 0;
  size_t stray_lines = 0;  // tool noise tolerated, summed over the files
};

// Parses `text` as `kind` into `sources`. Throws InputError naming path:line.
void add_source(HealthSources& sources, SourceKind kind, const std::string& path, const std::string& text);

struct HealthJudgement {
  FirmwarePins pins;
  TemperatureLimits limits;
  // Names nodes first (may be null); then a managed switch's host name from its description
  // ("MF0;host:MQM9700/U1"), a description no other node shares, or the GUID.
  const topo::NodeNameMap* names = nullptr;
};

// What the checks judge, every node named once (as HealthJudgement::names says).
struct HealthInputs {
  std::vector<FirmwareRecord> firmware;
  std::vector<SwitchTemperature> temperatures;  // switch ASICs
  std::vector<ModuleAt> modules;
  std::vector<NamedSwitch> hardware;  // ibswinfo's fans and PSUs
  std::vector<PortBer> ber;           // net_dump_ext's and mlxlink's, with their peers
};
HealthInputs health_inputs(const HealthSources& sources, const topo::NodeNameMap* names);

// Every check over the sources, one cause one finding.
std::vector<Finding> check_health(const HealthInputs& inputs, const HealthJudgement& judgement);
std::vector<Finding> check_health(const HealthSources& sources, const HealthJudgement& judgement);

}  // namespace ibburn::health
