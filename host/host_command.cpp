#include "host/host_command.h"

#include <ostream>

#include "common/file_io.h"
#include "common/finding.h"

namespace ibburn::host {

int host_check_command(const CheckOptions& options, const std::string& json_out, std::ostream& out) {
  HostReport report = check_host(options);
  print_report(out, report);
  if (!json_out.empty()) write_file_atomic(json_out, to_json(report).dump(2) + "\n");
  return exit_code_for(report.findings);
}

}  // namespace ibburn::host
