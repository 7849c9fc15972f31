#pragma once
// The fabric an ibdiagnet2.db_csv holds, so `--fabric ibdiagnet2.db_csv` (or the ibdiagnet
// output directory) is a fabric source like the ibnetdiscover text of the same run (docs/formats.md):
//  - NODES: GUIDs, type, description, port count, device and vendor IDs (decimal);
//  - PORTS: each port's GUID, LID (a switch's on port 0, copied to its external ports as the
//    other loaders do), LMC, state, physical state, active/supported/enabled width and speed;
//  - LINKS: the cables, one row per link.
// Speeds are written as IBDM's IBLinkSpeed bit mask: the low byte is PortInfo's LinkSpeed
// field (1 SDR, 2 DDR, 4 QDR), the next LinkSpeedExtActive's (1 FDR, 2 EDR, 4 HDR, 8 NDR,
// checked on the real capture: 0x804 is 4xNDR in its ibnetdiscover twin), 1<<16 FDR10, 1<<24 XDR.
#include "topo/db_csv.h"
#include "topo/fabric.h"

namespace ibburn::topo {

// Throws InputError naming the row: a missing section or column, a bad number, a port or
// link naming a node NODES lacks, a port beyond its node's count, a port linked twice.
Fabric fabric_from_db_csv(const DbCsv& db);

// One port's speed from the IBDM bit mask above (the highest speed set: supported and
// enabled masks hold several).
Speed speed_from_ibdm(uint64_t mask);

}  // namespace ibburn::topo
