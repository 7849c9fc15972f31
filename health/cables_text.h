#pragma once
// ibdiagnet2.cables (ibdiagnet --get_cable_info): one block per port, behind a dashed rule
// and `Port=N Lid=0x... GUID=0x... Port Name=...`, then `Key: value` lines read from the
// module's own memory map. The tool writes "no reading" as `N/A`, `NA`, `-999.999 mW` or,
// for a module without a sensor (passive copper), `0C`; all of them read as absent here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ibburn::health {

struct CableModule {
  uint64_t guid = 0;  // the node the module is plugged into
  int port = 0;
  std::string port_name;  // ibdiagnet's `Port Name=`
  int line = 0;           // the block's `Port=` line
  std::string vendor, part_number, serial, revision;
  std::optional<double> temperature_c;
  std::optional<double> alarm_high_c;    // AlarmTemperatureHighThresh: the module's own limit
  std::optional<double> warning_high_c;  // WarnTemperatureHighThresh
};

struct CablesFile {
  std::vector<CableModule> modules;
  size_t stray_lines = 0;  // lines that are neither a block header, a rule nor `Key: value`: counted
};

// "FS OSFP-SR8-800G SN G2430283435": the part a replacement ticket names. Fields the module
// did not report (empty, `N/A`, `NA`) are left out; empty when none is known.
std::string part_text(const CableModule& m);

// Throws InputError(origin:line) on a malformed `Port=` line or a temperature that is not a
// number of degrees.
CablesFile parse_cables(const std::string& text, const std::string& origin);

}  // namespace ibburn::health
