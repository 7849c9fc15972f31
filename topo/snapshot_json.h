#pragma once
// ibburn's own fabric snapshot: JSON, versioned, lossless for everything in topo::Fabric.
//   {"format": "ibburn-fabric", "version": 1,
//    "nodes": [{"type": "Switch", "guid": "0x...", ..., "ports": [{"number": 1, ...}]}],
//    "links": [[node, port, node, port], ...]}
// The schema is in docs/formats.md. The writer (to_json_text) is declared in topo/fabric_io.h.
#include <string>
#include <string_view>

#include "topo/fabric.h"

namespace ibburn::topo {

inline constexpr const char* kSnapshotFormat = "ibburn-fabric";
inline constexpr int kSnapshotVersion = 1;

// Throws InputError(origin, line, reason): the line of a JSON syntax error, or line 0 and
// the JSON path (e.g. nodes[3].ports[1].lid) of a value that breaks the schema.
Fabric parse_snapshot_json(std::string_view text, const std::string& origin);

}  // namespace ibburn::topo
