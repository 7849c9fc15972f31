#pragma once
// Switch names from the wiring plan, for fabrics whose switches report generic node
// descriptions ('MF0;...:MQM9700/U1', 'Quantum-2 Mellanox Technologies') and come without
// a node-name-map. The discovered graph is aligned with the plan, anchored at the nodes whose
// names already match it (HCA node descriptions are the same in plan and fabric): a leaf is
// the switch the plan's HCAs hang from (majority vote over its links), spines follow from
// their leaves, cores from spines. Voting makes it robust to a minority of miswired cables.
// Pure logic, no I/O.
#include <cstdint>
#include <string>
#include <vector>

#include "topo/fabric.h"
#include "topo/node_name_map.h"
#include "wiring/wiring.h"

namespace ibburn::wiring {

struct InferredName {
  uint64_t guid = 0;
  std::string name;
  int agreeing = 0;    // links to named neighbours that the plan puts on this switch
  int neighbours = 0;  // links to named neighbours
  double confidence() const { return neighbours ? double(agreeing) / neighbours : 0.0; }
};

struct NameInference {
  std::vector<InferredName> named;  // sorted by name
  std::vector<uint64_t> unnamed;    // switches no planned name could be given to
  topo::NodeNameMap map() const;
  // node-name-map text, each line with its confidence as a trailing comment.
  std::string to_text() const;
};

// Infers names for the discovered switches whose name and description are not plan names.
NameInference infer_switch_names(const topo::Fabric& fabric, const Wiring& plan);

// Infers and applies the names (switches that already carry plan names keep them).
NameInference name_switches_from_plan(topo::Fabric& fabric, const Wiring& plan);

}  // namespace ibburn::wiring
