#include "route_check/routes_command.h"

#include <fmt/format.h>

#include <ostream>

#include "common/error.h"
#include "common/file_io.h"
#include "route_check/lft_dumps.h"
#include "route_check/vl_reader.h"
#include "routing/lft_reader.h"

namespace ibburn::route_check {
namespace {

bool has_loop(const RouteCheck& check) {
  for (const Finding& f : check.findings)
    if (f.kind == FindingKind::CreditLoop) return true;
  return false;
}

VlTables vl_tables(const topo::Fabric& fabric, const topo::FabricSource& source, const VlSource& vls) {
  if (!vls.file.empty()) return load_vl_tables_json(vls.file);
  VlTables t = read_vl_tables(fabric, source.live.mad);
  if (!vls.save.empty()) write_file_atomic(vls.save, vl_tables_to_json_text(t));
  return t;
}

}  // namespace

RouteCheck judge_routes(const topo::Fabric& fabric, const routing::CableIndex& cables,
                        const routing::ForwardingTables& lfts, const topo::FabricSource& source, const VlSource& vls,
                        const RouteCheckOptions& options, std::ostream& err) {
  if (vls.per_vl != "auto" && vls.per_vl != "yes" && vls.per_vl != "no")
    throw InputError("--per-vl", 0, "'" + vls.per_vl + "' is not auto, yes or no");
  const bool can_read = !vls.file.empty() || source.is_live();
  if (vls.per_vl == "yes") {
    if (!can_read) throw InputError("--per-vl", 0, "per-VL judging needs --vls FILE or --fabric live");
    const VlTables t = vl_tables(fabric, source, vls);
    return check_routes(fabric, cables, lfts, &t, options);
  }
  RouteCheck one = check_routes(fabric, cables, lfts, nullptr, options);
  if (vls.per_vl == "no" || !has_loop(one)) return one;
  if (!can_read) {
    err << "topo routes: a credit loop on one VL graph; the SL2VL tables and path SLs are not at hand (--vls FILE or "
           "--fabric live), so it stands as found\n";
    return one;
  }
  err << "topo routes: a credit loop on one VL graph: judging again per VL, from "
      << (vls.file.empty() ? std::string("the SL2VL tables and the SA's path SLs read live") : vls.file) << "\n";
  const VlTables t = vl_tables(fabric, source, vls);
  return check_routes(fabric, cables, lfts, &t, options);
}

int routes_command(const RoutesCommandOptions& o, std::ostream& out, std::ostream& err) {
  const topo::Fabric fabric = o.fabric.load();
  routing::ForwardingTables lfts;
  if (!o.lfts.empty()) {
    lfts = load_lfts(o.lfts);
  } else if (o.fabric.is_live()) {
    lfts = routing::read_forwarding_tables(fabric, o.fabric.live.mad);
    if (lfts.by_directed_route)
      err << "topo routes: " << lfts.by_directed_route
          << " switch(es) did not answer by LID: their tables were read by directed route\n";
    if (!o.save_lfts.empty()) write_file_atomic(o.save_lfts, routing::lfts_to_json_text(lfts));
  } else {
    throw InputError("--lfts", 0, "a fabric from files needs its forwarding tables: --lfts FILE (or --fabric live)");
  }
  // Rates do not matter here: a route's channels are the same at any speed.
  const routing::CableIndex cables(fabric, 1.0);
  const RouteCheck check = judge_routes(fabric, cables, lfts, o.fabric, o.vls, o.check, err);
  out << "topo routes: " << describe(check) << "\n";
  print_summary(out, "topo routes", check.findings, o.max_details);
  if (!o.json_out.empty()) {
    nlohmann::json j = findings_to_json(check.findings);
    j["routes"] = {{"destinations", check.destinations}, {"vls", check.vl_count},
                   {"channels", check.channels},         {"dependencies", check.dependencies},
                   {"port_groups", check.port_groups},   {"tree", check.tree}};
    write_file_atomic(o.json_out, j.dump(2) + "\n");
  }
  return exit_code_for(check.findings);
}

}  // namespace ibburn::route_check
