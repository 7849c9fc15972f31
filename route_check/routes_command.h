#pragma once
// `ibburn topo routes` end to end, and the judgement `ibburn run` shares: the fabric (a file
// or live), its forwarding tables (read live, a --save-lfts file, an ibdiagnet or opensm
// dump), the VLs the routes take when asked or when one graph shows a credit loop, the
// checks (route_findings.h), the summary and the findings file.
#include <iosfwd>
#include <string>

#include "route_check/route_findings.h"
#include "routing/cable_index.h"
#include "routing/routing.h"
#include "topo/fabric.h"
#include "topo/fabric_source.h"

namespace ibburn::route_check {

// Where the VLs come from. `per_vl`: "no" judges one graph; "yes" judges per VL from `file`
// or, live, from the tables read then; "auto" judges one graph and, when it shows a credit
// loop, again per VL where the tables can be had (a file, or the fabric is live): the loop
// stands only if it holds once VLs are counted.
struct VlSource {
  std::string per_vl = "auto";
  std::string file;  // ibburn-vls JSON (--save-vls)
  std::string save;  // where to write the tables read live
};

// Says on `err` what was judged and, when VLs were read because of a loop, why.
RouteCheck judge_routes(const topo::Fabric& fabric, const routing::CableIndex& cables,
                        const routing::ForwardingTables& lfts, const topo::FabricSource& source, const VlSource& vls,
                        const RouteCheckOptions& options, std::ostream& err);

struct RoutesCommandOptions {
  topo::FabricSource fabric;  // default: live
  std::string lfts;           // the tables from a file (any format lft_dumps.h reads)
  std::string save_lfts;      // write the tables read live
  VlSource vls;
  RouteCheckOptions check;
  std::string json_out;     // {"findings": [...], "routes": {...}}
  size_t max_details = 20;  // details shown per kind (0 = all)
};

// Summary on `out`, progress on `err`. Returns the exit code (0 clean, 1 findings; bad input
// and a fabric that cannot be read throw, exit 2 and 3).
int routes_command(const RoutesCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ibburn::route_check
