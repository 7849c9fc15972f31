#pragma once
// ibdiagnet2.db_csv's nodes as `ibburn health` judges them: NODES, NODES_INFO and
// TEMP_SENSING joined by node GUID (the section reader is topo/db_csv).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topo/db_csv.h"

namespace ibburn::health {

struct DiagNode {
  uint64_t guid = 0;
  std::string description;              // NodeDesc
  bool is_switch = false;               // NodeType 2
  std::string device_id;                // "0xd2f2", as NODES_INFO writes it
  std::string psid;                     // empty when NODES_INFO has no row for the node
  std::string firmware;                 // "31.2012.1024"; FWInfo_Extended_* when set, else Major.Minor.SubMinor
  std::optional<double> temperature_c;  // TEMP_SENSING CurrentTemperature
};

// Throws InputError naming the section's row when a needed column is missing or a value is
// not a number.
std::vector<DiagNode> diag_nodes(const topo::DbCsv& db);

// One LINKS row: the cable between two ports (the BER check's cable ends).
struct DiagLink {
  uint64_t guid_a = 0, guid_b = 0;
  int port_a = 0, port_b = 0;
};

// LINKS, empty when the capture has none; throws InputError as diag_nodes.
std::vector<DiagLink> diag_links(const topo::DbCsv& db);

}  // namespace ibburn::health
