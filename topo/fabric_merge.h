#pragma once
// Merging fabric snapshots discovered from different vantage points (one per island when
// the fabric is split) into one fabric. Pure logic, no I/O.
#include <vector>

#include "topo/fabric.h"

namespace ibburn::topo {

// Nodes are the same node when their node GUID, type and description match across snapshots
// (the first snapshot's copy is kept; a GUID repeated inside one snapshot, or carried by nodes
// of another type or name, stays repeated, for the duplicate_guid check). Links of all snapshots are united; when two
// snapshots disagree about a port's peer (the fabric changed between them), the earlier snapshot wins. A port that one
// snapshot could not follow (peer_unreached) is linked when another snapshot saw its link.
// The snapshots' subnets are kept in order, each node pointing at its own snapshot's.
Fabric merge_fabrics(std::vector<Fabric> snapshots);

}  // namespace ibburn::topo
