#pragma once
// Reads what puts each route on a VL from the live fabric: every switch's SL2VL table for
// each pair of its cabled ports (SMP Get SLtoVLMappingTable, in port << 8 | out port, through
// the MAD window), and the SL the SA gives every pair of HCA LIDs (PathRecord by SLID and
// DLID, one query a pair through libibmad: LASH and DFSSSP answer pairs with different SLs,
// and nothing else on the fabric says which). Pairs grow as the square of the HCAs, so this
// is asked for (`--per-vl`), or done when one graph shows a credit loop.
#include "route_check/vl_tables.h"
#include "topo/fabric.h"
#include "topo/mad_window.h"

namespace ibburn::route_check {

// Throws EnvironmentError naming the switch or pair that did not answer.
VlTables read_vl_tables(const topo::Fabric& fabric, const topo::MadOptions& mad);

}  // namespace ibburn::route_check
