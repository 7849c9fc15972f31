#include "topo_check/topo_check_command.h"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "topo_check/topo_check.h"
#include "common/file_io.h"
#include "common/finding.h"
#include "wiring/wiring.h"

namespace ibburn::topo_check {
namespace {

// One line about inferred names, so the site knows names are guesses.
void tell_inferred(const wiring::NameInference& inf, std::ostream& err) {
  if (inf.named.empty() && inf.unnamed.empty()) return;
  auto weakest = std::min_element(inf.named.begin(), inf.named.end(),
                                  [](const auto& a, const auto& b) { return a.confidence() < b.confidence(); });
  err << fmt::format("ibburn: {} switch name{} inferred from the plan", inf.named.size(),
                     inf.named.size() == 1 ? "" : "s");
  if (weakest != inf.named.end())
    err << fmt::format(" (lowest confidence {:.2f}: {})", weakest->confidence(), weakest->name);
  if (!inf.unnamed.empty()) err << fmt::format(", {} left unnamed", inf.unnamed.size());
  err << "\n";
}

}  // namespace

int topo_check_command(const TopoCheckCommandOptions& o, std::ostream& out, std::ostream& err) {
  // The plan first: a typo in it fails before the fabric is touched.
  wiring::Wiring plan = wiring::load_wiring_csv(o.wiring);
  topo::Fabric fabric = o.fabric.load();
  TopoCheck check = check_topology(fabric, plan, o.fabric.vantage_points(), o.infer_names);
  if (o.infer_names) tell_inferred(check.names, err);
  const std::vector<Finding>& findings = check.findings;
  print_summary(out, "topo check", findings, o.max_details);
  if (!o.json_out.empty()) write_file_atomic(o.json_out, findings_to_json(findings).dump(2) + "\n");
  return exit_code_for(findings);
}

}  // namespace ibburn::topo_check
