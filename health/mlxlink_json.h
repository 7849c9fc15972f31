#pragma once
// `mlxlink --json` (MFT): {"result": {"output": {"Module Info": {...}, "Physical Counters
// and BER Info": {...}, "Tool Information": {...}}}}. Values are strings, some with their
// range appended ("61 [-10..80]"), lists as {"values": [...]}. The port the tool read is not
// in the file: the caller names it (the file name).
#include <optional>
#include <string>
#include <vector>

#include "health/cables_text.h"

namespace ibburn::health {

struct MlxlinkPort {
  CableModule module;           // vendor, PN, SN, revision, temperature; alarm_high_c from its range
  std::string module_firmware;  // Module Info "FW Version"
  std::string device_firmware;  // Tool Information "Firmware Version": the HCA's or switch's
  std::optional<double> raw_ber, effective_ber;
  std::vector<double> raw_ber_per_lane;
};

// Throws InputError(origin) when the text is not JSON or lacks result.output.
MlxlinkPort parse_mlxlink_json(const std::string& text, const std::string& origin);

}  // namespace ibburn::health
