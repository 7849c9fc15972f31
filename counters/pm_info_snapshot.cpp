#include "counters/pm_info_snapshot.h"

#include <ctime>
#include <iomanip>
#include <iterator>
#include <sstream>

#include "common/error.h"
#include "common/file_io.h"
#include "counters/snapshot_json.h"
#include "topo/db_csv_fabric.h"
#include "topo/node_name_map.h"

namespace ibburn::counters {
namespace {

// Each counter's 64-bit column, then its PortCounters column (empty: none).
struct Columns {
  Counter counter;
  const char* wide;
  const char* narrow;
};

constexpr Columns kColumns[] = {
    {Counter::SymbolErrorCounter, "SymbolErrorCounterExt", "SymbolErrorCounter"},
    {Counter::LinkErrorRecoveryCounter, "LinkErrorRecoveryCounterExt", "LinkErrorRecoveryCounter"},
    {Counter::LinkDownedCounter, "LinkDownedCounterExt", "LinkDownedCounter"},
    {Counter::PortRcvErrors, "PortRcvErrorsExt", "PortRcvErrors"},
    {Counter::PortRcvRemotePhysicalErrors, "PortRcvRemotePhysicalErrorsExt", "PortRcvRemotePhysicalErrors"},
    {Counter::PortRcvSwitchRelayErrors, "PortRcvSwitchRelayErrorsExt", "PortRcvSwitchRelayErrors"},
    {Counter::PortXmitDiscards, "PortXmitDiscardsExt", "PortXmitDiscards"},
    {Counter::PortXmitConstraintErrors, "PortXmitConstraintErrorsExt", "PortXmitConstraintErrors"},
    {Counter::PortRcvConstraintErrors, "PortRcvConstraintErrorsExt", "PortRcvConstraintErrors"},
    {Counter::LocalLinkIntegrityErrors, "LocalLinkIntegrityErrorsExt", "LocalLinkIntegrityErrors"},
    {Counter::ExcessiveBufferOverrunErrors, "ExcessiveBufferOverrunErrorsExt", "ExcessiveBufferOverrunErrors"},
    {Counter::VL15Dropped, "VL15DroppedExt", "VL15Dropped"},
    {Counter::PortXmitWait, "PortXmitWaitExt", "PortXmitWait"},
    {Counter::QP1Dropped, "QP1DroppedExt", ""},
    {Counter::PortXmitData, "PortXmitDataExtended", "PortXmitData"},
    {Counter::PortRcvData, "PortRcvDataExtended", "PortRcvData"},
    {Counter::PortXmitPkts, "PortXmitPktsExtended", "PortXmitPkts"},
    {Counter::PortRcvPkts, "PortRcvPktsExtended", "PortRcvPkts"},
    {Counter::PortUnicastXmitPkts, "PortUniCastXmitPkts", ""},
    {Counter::PortUnicastRcvPkts, "PortUniCastRcvPkts", ""},
    {Counter::PortMulticastXmitPkts, "PortMultiCastXmitPkts", ""},
    {Counter::PortMulticastRcvPkts, "PortMultiCastRcvPkts", ""},
};
static_assert(std::size(kColumns) == kCounterCount, "every counter has its PM_INFO columns");

bool not_read(const std::string& v) { return v == "N/A" || v == "NA" || v.empty(); }

// RUN_INFO's "2025-03-31 23:43:18 UTC +0000" as Unix ms; 0 when absent or in another form.
int64_t run_time_ms(const topo::DbCsv& db) {
  const topo::CsvSection* run = db.find("RUN_INFO");
  if (!run || run->rows.empty() || run->column("Date") < 0) return 0;
  std::tm tm{};
  std::istringstream in(run->rows.front()[static_cast<size_t>(run->column("Date"))]);
  in >> std::get_time(&tm, "%Y-%m-%d %H:%M:%S");
  if (in.fail()) return 0;
  return static_cast<int64_t>(timegm(&tm)) * 1000;
}

}  // namespace

Snapshot snapshot_from_pm_info(const topo::DbCsv& db, const topo::Fabric& fabric) {
  const topo::CsvSection* pm = db.find("PM_INFO");
  if (!pm) throw InputError(db.origin, 0, "no PM_INFO section (ibdiagnet ran without its counters)");
  topo::SectionReader r(db, *pm);
  const int node_col = r.need("NodeGUID"), port_col = r.need("PortNumber");
  const int port_guid_col = pm->column("PortGUID");
  // Per counter: the column read and the width its values have.
  std::vector<std::pair<int, int>> wide(kCounterCount, {-1, 0}), narrow(kCounterCount, {-1, 0});
  bool any = false;
  for (const Columns& c : kColumns) {
    const size_t i = static_cast<size_t>(c.counter);
    wide[i] = {pm->column(c.wide), 64};
    if (*c.narrow) narrow[i] = {pm->column(c.narrow), port_counters_bits(c.counter)};
    any = any || wide[i].first >= 0 || narrow[i].first >= 0;
  }
  if (!any) r.need("SymbolErrorCounter");  // names the first column a PM_INFO always has
  Snapshot snap;
  snap.time_ms = run_time_ms(db);
  snap.ports.reserve(r.rows());
  for (size_t row = 0; row < r.rows(); ++row) {
    auto id = fabric.find_guid(r.number(row, node_col));
    if (!id) r.fail(row, "PM_INFO names node " + r.text(row, node_col) + ", which NODES lacks");
    const topo::Node& n = fabric.node(*id);
    const int port = static_cast<int>(r.number(row, port_col));
    const topo::Port* p = n.port(port);
    if (!p) r.fail(row, "PM_INFO names port " + r.text(row, port_col) + " of " + n.name + ", which has no such port");
    PortSample s;
    s.node = n.name;
    s.node_guid = n.guid;
    s.port_guid = port_guid_col >= 0 ? r.number(row, port_guid_col) : p->guid;
    s.node_type = n.type;
    s.lid = p->lid;
    s.port = port;
    if (p->linked()) s.peer = PortRef{fabric.node(p->remote.node).name, p->remote.port};
    s.reachable = true;  // ibdiagnet writes a row for each port whose PMA answered
    s.state = p->state;
    s.phys = p->phys;
    for (size_t i = 0; i < kCounterCount; ++i)
      for (const auto& [column, width] : {wide[i], narrow[i]}) {
        if (column < 0 || not_read(r.text(row, column))) continue;
        s.counters.set(counter_at(i), r.number(row, column), width);
        break;
      }
    snap.ports.push_back(std::move(s));
  }
  return snap;
}

Snapshot load_saved_sweep(const std::string& path, const std::string& node_name_map) {
  const std::string db_path = topo::db_csv_file(path);
  if (db_path.empty()) return load_snapshot(path);
  const topo::DbCsv db = topo::parse_db_csv(read_file(db_path), db_path);
  topo::Fabric fabric = topo::fabric_from_db_csv(db);
  if (!node_name_map.empty()) topo::NodeNameMap::load(node_name_map).apply(fabric);
  return snapshot_from_pm_info(db, fabric);
}

}  // namespace ibburn::counters
