#pragma once
// An ibdiagnet capture's PM_INFO as a counters snapshot, so `counters --snapshot` judges it
// against the thresholds and `--baseline` takes it as the earlier sweep (docs/counters.md).
// Each counter is read from its 64-bit column when the row has one (`SymbolErrorCounterExt`,
// `PortXmitDataExtended`, `PortUniCastXmitPkts`...), else from the PortCounters column at
// that counter's PortCounters width; `N/A` is "not read". The capture's time is RUN_INFO's
// `Date`.
#include <string>

#include "counters/port_counters.h"
#include "topo/db_csv.h"
#include "topo/fabric.h"

namespace ibburn::counters {

// `fabric` is the capture's own (topo::fabric_from_db_csv), named as the caller wants: it
// gives each port its node's name and type, LID and peer. Throws InputError naming the row:
// no PM_INFO, a missing column, a bad number, a port the fabric lacks.
Snapshot snapshot_from_pm_info(const topo::DbCsv& db, const topo::Fabric& fabric);

// A saved sweep: an ibdiagnet output (its db_csv file or directory; nodes named by
// `node_name_map` when not empty) or an ibburn snapshot (--save, --json).
Snapshot load_saved_sweep(const std::string& path, const std::string& node_name_map);

}  // namespace ibburn::counters
