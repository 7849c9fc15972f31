#pragma once
// `ibburn host check` end to end: check, print the report, write its JSON. Returns the
// exit code (0 ready, 1 findings that are errors).
#include <iosfwd>
#include <string>

#include "host/host_check.h"

namespace ibburn::host {

int host_check_command(const CheckOptions& options, const std::string& json_out, std::ostream& out);

}  // namespace ibburn::host
