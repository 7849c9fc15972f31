#pragma once
// Reads the switches' linear forwarding tables from the live fabric with LID-routed SMPs,
// many in flight through the MAD window (topo/mad_window.h) as discovery's are, and
// saves/loads them as JSON so a plan can be recomputed offline.
#include <string>

#include "routing/routing.h"
#include "topo/fabric.h"
#include "topo/mad_window.h"

namespace ibburn::routing {

// Every switch of `fabric` with a LID: each one's SwitchInfo (how far its table goes), then
// every block of every table; a switch silent by LID is asked by directed route over the
// model's links. Throws EnvironmentError when the local port cannot be opened or a switch
// answers neither way after the retries.
ForwardingTables read_forwarding_tables(const topo::Fabric& fabric, const topo::MadOptions& mad);

std::string lfts_to_json_text(const ForwardingTables& lfts);
ForwardingTables load_lfts_json(const std::string& path);  // InputError on bad content

}  // namespace ibburn::routing
