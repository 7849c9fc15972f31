#include "health/switch_hardware_check.h"

namespace ibburn::health {

std::vector<Finding> check_switch_hardware(const std::vector<NamedSwitch>& switches) {
  std::vector<Finding> out;
  auto bad = [](const std::string& status) { return !status.empty() && status != "OK"; };
  for (const NamedSwitch& s : switches) {
    if (bad(s.info.fan_status))
      out.push_back({FindingKind::SwitchFan,
                     Severity::Error,
                     s.name + ": fan status " + s.info.fan_status,
                     {{s.name, 0}},
                     {{"status", s.info.fan_status}, {"rpm", s.info.fan_rpm}}});
    for (const SwitchPsu& p : s.info.psus)
      if (bad(p.status) || bad(p.dc_power) || bad(p.fan_status))
        out.push_back({FindingKind::SwitchPsu,
                       Severity::Error,
                       s.name + ": " + p.name + " status " + p.status + ", DC power " + p.dc_power + ", fan " +
                           p.fan_status + " (P/N " + p.part_number + ", S/N " + p.serial + ")",
                       {{s.name, 0}},
                       {{"psu", p.name},
                        {"status", p.status},
                        {"dc_power", p.dc_power},
                        {"fan_status", p.fan_status},
                        {"part_number", p.part_number},
                        {"serial", p.serial}}});
  }
  return out;
}

}  // namespace ibburn::health
