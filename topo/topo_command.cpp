#include "topo/topo_command.h"

#include <ostream>

#include "common/exit_codes.h"
#include "common/file_io.h"
#include "topo/fabric_io.h"
#include "topo/fabric_summary.h"

namespace ibburn::topo {

int topo_discover_command(const DiscoverOptions& options, const std::string& output, std::ostream& err) {
  DiscoverStats stats;
  Fabric fabric = discover_live(options, &stats);
  save_fabric_file(fabric, output);
  FabricSummary s = summarize(fabric);
  err << "ibburn: " << s.switches << " switches, " << s.cas << " HCAs, " << s.links << " links written to " << output
      << " (" << stats.smps << " SMPs, " << stats.timeouts << " unanswered, " << stats.levels << " hop levels)\n";
  return kExitOk;
}

int topo_show_command(const FabricSource& source, const std::string& json_out, std::ostream& out) {
  FabricSummary s = summarize(source.load());
  if (json_out.empty())
    out << to_text(s);
  else if (json_out == "-")
    out << to_json(s).dump(2) << "\n";
  else
    write_file_atomic(json_out, to_json(s).dump(2) + "\n");
  return kExitOk;
}

}  // namespace ibburn::topo
