#pragma once
// Temperatures from the vendor's own sensors: switch ASICs against two levels (docs/health.md
// says where each comes from), cable modules against the alarm and warning thresholds their
// own memory map carries. One cause, one finding: when most switches run hot (at least half
// of those with a reading, and at least 8), the cause is the room's cooling (air recirculating
// between switches), told once with the count and the range, not once per switch; the same
// holds for modules, and for the switches of one row or rack all hot. Pure logic.
#include <string>
#include <vector>

#include "common/finding.h"
#include "health/cables_text.h"

namespace ibburn::health {

struct TemperatureLimits {
  // Site default: above a healthy idle ASIC (the real capture's switches: 46-62 C), at the
  // level of issue #26's alerts (ports over 70 C before carrying data). Warning.
  double switch_hot_c = 70;
  // NVIDIA's documented ASIC warning threshold (Switch-IB / Switch-IB 2 product manuals;
  // Spectrum's is 105 C); the firmware shuts the ASIC down at 120 C. Error.
  double switch_alarm_c = 100;
  double most_share = 0.5;  // "most": this share of the readings...
  size_t most_min = 8;      // ... and at least this many
  size_t place_min = 2;     // a row or rack told as one: this many switches with a reading, all hot
};

// `switch_hot_c=N` and `switch_alarm_c=N` lines, '#' comments. Throws InputError(origin:line)
// on an unknown name or a value that is not a number.
TemperatureLimits parse_temperature_limits(const std::string& text, const std::string& origin);

struct SwitchTemperature {
  std::string name;
  double celsius = 0;
};

struct ModuleAt {
  PortRef port;  // the node and port the module is plugged into
  CableModule module;
};

// `switch_hot` per switch (warning, error at the alarm level), or one `switches_hot` when most
// are; otherwise a row, then a rack (health/rack_names.h) all of whose switches are hot is one
// `row_hot` / `rack_hot` with the count and range, its switches its ports. `module_hot` per module at or over its own
// warning (warning) or alarm (error) threshold, naming its vendor, PN and serial, or one `modules_hot` when most are.
// Readings without a threshold are not judged.
std::vector<Finding> check_temperatures(const std::vector<SwitchTemperature>& switches,
                                        const std::vector<ModuleAt>& modules, const TemperatureLimits& limits = {});

}  // namespace ibburn::health
