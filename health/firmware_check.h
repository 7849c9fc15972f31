#pragma once
// Firmware consistency: the nodes of one device ID and PSID (one board) should run one
// firmware. A group on more than one version is one finding, whatever its size: an update
// that did not reach every node. Different PSIDs of one device are different boards (an OEM's
// or a revision's), whose versions are not compared. Pure logic; docs/health.md.
#include <map>
#include <string>
#include <vector>

#include "common/finding.h"

namespace ibburn::health {

struct FirmwareRecord {
  std::string name;     // the node, for messages and PortRef
  std::string device;   // device ID ("0xd2f2"), or a part number where the source has no ID
  std::string model;    // "MQM9700", "Quantum-2"; may be empty
  std::string psid;     // empty: unknown, the node is not judged
  std::string version;  // "31.2012.1024"
};

// `PSID=version` per line, '#' comments and blank lines ignored: the version each board must
// run. Throws InputError(origin:line) on a line without '=', an empty side or a PSID twice.
using FirmwarePins = std::map<std::string, std::string>;
FirmwarePins parse_firmware_pins(const std::string& text, const std::string& origin);

// The model in a node description: "MF0;host:MQM9700/U1" -> "MQM9700", "Quantum-2 Mellanox
// Technologies" -> "Quantum-2"; otherwise empty (an HCA's description names its host).
std::string model_of(const std::string& description);

// -1, 0, 1 comparing dotted versions number by number ("31.2012.1068" > "31.2012.1024").
int compare_versions(const std::string& a, const std::string& b);

// One finding per group (device, PSID) on more than one version, `firmware_mixed` (warning;
// error when the PSID is pinned): each version, its count and nodes; the nodes behind the
// newest (or off the pin) are its ports. A uniform group off its pin is `firmware_unpinned`
// (error).
std::vector<Finding> check_firmware(const std::vector<FirmwareRecord>& records, const FirmwarePins& pins = {});

}  // namespace ibburn::health
