#pragma once
// Which node a NodeInfo answer is, when live discovery knows its GUID already. Two nodes can
// share a GUID (a cloned firmware image): an answer is another node when its type or port
// count differs, or when the port it answered through is already cabled to someone other
// than the prober. Pure logic over the walk so far, no I/O.
#include <vector>

#include "topo/smp_fabric.h"

namespace ibburn::topo {

struct KnownNode {
  int id = -1;  // index into SmpFabric::nodes; -1: a node of its own
  // False when the answer came through a GUID twin of the far end of its port's cable: the
  // node seen again through the twin, kept but not relinked, so one twin does not copy the
  // whole fabric behind it.
  bool link = true;
};

// `same_guid`: the known nodes with the answer's GUID, in the order found; the answer
// (type, port count, the port it answered through) came through `from_port` of `from_node`.
KnownNode known_node(const SmpFabric& fabric, const std::vector<int>& same_guid, int type, int num_ports,
                     int local_port, int from_node, int from_port);

}  // namespace ibburn::topo
