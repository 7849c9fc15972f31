#pragma once
// The audit's inputs from an ibdiagnet capture instead of live SMPs (pure): ibdiagnet2.db_csv
// holds what ibdiagnet read with the same Gets (PORTS: PortInfo's M_Key, protect bits, MTUs,
// VLs, partition enforcement, capability mask; PKEY: every port's P_Key table; SM_INFO: each
// SM's GUID, key, state, priority), so `ibburn topo audit --fabric CAPTURE_DIR` audits a
// fabric the site captured, and ibdiagnet's M_Key and SM_Key readings (which ibsim does not
// model) are tested on a real capture.
#include "audit/audit_reads.h"
#include "topo/db_csv.h"
#include "topo/fabric.h"

namespace ibburn::audit {

// `fabric`: the capture's own (topo::fabric_from_db_csv), for names, peers and tiers. Throws
// InputError naming the row for a missing column or a bad number.
AuditReads audit_reads_from_capture(const topo::DbCsv& db, const topo::Fabric& fabric);

}  // namespace ibburn::audit
