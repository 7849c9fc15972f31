#include "health/health_command.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <ostream>

#include "common/error.h"
#include "common/file_io.h"
#include "common/finding.h"
#include "health/health_sources.h"
#include "topo/node_name_map.h"

namespace ibburn::health {

namespace fs = std::filesystem;

HealthSources load_health_sources(const std::vector<std::string>& inputs) {
  HealthSources sources;
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      std::vector<std::string> files;
      for (const auto& e : fs::recursive_directory_iterator(input))
        if (e.is_regular_file()) files.push_back(e.path().string());
      std::sort(files.begin(), files.end());
      for (const std::string& f : files) {
        std::string text = read_file(f);
        add_source(sources, source_kind(f, text), f, text);
      }
      continue;
    }
    std::string text = read_file(input);
    SourceKind kind = source_kind(input, text);
    if (kind == SourceKind::None)
      throw InputError(input, 0,
                       "not a file health reads (*.db_csv, *.cables, *.net_dump_ext, ibswinfo output, mlxlink --json)");
    add_source(sources, kind, input, text);
  }
  if (sources.files == 0) throw Error(kExitInput, "health: no ibdiagnet2, ibswinfo or mlxlink file in the inputs");
  return sources;
}

int health_command(const HealthCommandOptions& o, std::ostream& out) {
  // Every input is read before anything is judged, so a typo fails with exit 2 at once.
  HealthJudgement judgement;
  if (!o.expect.empty()) judgement.pins = parse_firmware_pins(read_file(o.expect), o.expect);
  if (!o.thresholds.empty()) judgement.limits = parse_temperature_limits(read_file(o.thresholds), o.thresholds);
  std::unique_ptr<topo::NodeNameMap> names;
  if (!o.node_name_map.empty()) names = std::make_unique<topo::NodeNameMap>(topo::NodeNameMap::load(o.node_name_map));
  judgement.names = names.get();
  const HealthSources sources = load_health_sources(o.inputs);

  std::vector<Finding> findings = check_health(sources, judgement);
  const nlohmann::json counts = {{"files", sources.files},
                                 {"nodes", sources.nodes.size()},
                                 {"cable_modules", sources.cable_modules.size()},
                                 {"switches", sources.switches.size()},
                                 {"links", sources.links.size()},
                                 {"phy_ports", sources.phy.size()},
                                 {"stray_lines", sources.stray_lines}};
  if (!o.json_out.empty()) {
    nlohmann::json j = findings_to_json(findings);
    j["sources"] = counts;
    write_file_atomic(o.json_out, j.dump() + "\n");
  }
  print_summary(out,
                "health (" + std::to_string(sources.files) + " files: " + std::to_string(sources.nodes.size()) +
                    " nodes, " + std::to_string(sources.cable_modules.size() + sources.links.size()) +
                    " cable modules, " + std::to_string(sources.switches.size()) + " ibswinfo switches, " +
                    std::to_string(sources.phy.size()) + " ports' physical layer; " +
                    std::to_string(sources.stray_lines) + " lines of tool noise skipped)",
                findings);
  return exit_code_for(findings);
}

}  // namespace ibburn::health
