#pragma once
// The fans and power supplies an unmanaged switch reports through ibswinfo: any not `OK` is
// a finding of its own (a switch cooling itself with a failed fan runs hot next). Pure logic.
#include <string>
#include <vector>

#include "common/finding.h"
#include "health/ibswinfo_text.h"

namespace ibburn::health {

struct NamedSwitch {
  std::string name;
  SwitchInfo info;
};

// `switch_fan` (error) when the fan status is not OK, with the fans' speeds; `switch_psu`
// (error) per PSU whose status, DC power or fan is not OK, with its P/N and S/N.
std::vector<Finding> check_switch_hardware(const std::vector<NamedSwitch>& switches);

}  // namespace ibburn::health
