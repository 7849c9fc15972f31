#pragma once
// `ibswinfo -d lid-N` (an unmanaged switch read over MFT): the switch's description between
// `=` rules, then `key | value` rows; a PSU's own rows (P/N, S/N, DC power, fan status,
// power) are indented under its `PSUn status` row.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ibburn::health {

struct SwitchPsu {
  std::string name;    // "PSU0"
  std::string status;  // "OK" when well
  std::string part_number, serial, dc_power, fan_status;
};

struct SwitchInfo {
  std::string description;  // "Quantum Mellanox Technologies"
  std::string part_number, serial, product, revision, psid, firmware;
  uint64_t guid = 0;
  std::optional<double> temperature_c, max_temperature_c;
  std::vector<SwitchPsu> psus;
  std::string fan_status;  // "OK" when well
  std::vector<int> fan_rpm;
  size_t stray_lines = 0;  // rows this reader does not know: counted
};

// Throws InputError(origin:line) on a row without `|`, a bad GUID or temperature, or a file
// without part number, PSID or firmware version.
SwitchInfo parse_ibswinfo(const std::string& text, const std::string& origin);

}  // namespace ibburn::health
