#pragma once
// The counters snapshot on disk (`counters --save`, `--baseline`, and `ibburn run`'s
// counters-before.json / counters-stage-N.json / counters.json): strict and versioned.
//   {"schema_version": 2, "time_ms": ..., "ports": [{"node": ..., "node_guid": "0x...",
//    "port_guid": "0x...", "type": "Switch", "lid": 1, "port": 3, "reachable": true,
//    ["peer": {"node", "port"},] ["error": ...,] ["state": ...,] ["phys_state": ...,]
//    "counters": {MAD field name: value}, "extended": true}, ...]}
// Version 1 is the same document without schema_version (files written before it existed,
// including the old `--json` output, which also held the findings): read as is. A newer version
// is refused naming it; a missing or mistyped field is refused naming its JSON path, never
// defaulted. The optional fields are absent exactly when there is nothing to say (no link, no
// error, state not read). The writer appends text directly and the reader parses with simdjson:
// 24k ports are written and read in tens of milliseconds (docs/benchmarks.md).
#include <string>
#include <string_view>

#include "counters/port_counters.h"

namespace ibburn::counters {

inline constexpr int kSnapshotSchemaVersion = 2;
inline constexpr int kOldestSnapshotSchemaVersion = 1;

// `extra_members`: more top-level members as JSON text (`"findings": [...]`), or empty.
std::string snapshot_json_text(const Snapshot& s, std::string_view extra_members = {});
// `origin` names the source in errors (InputError).
Snapshot parse_snapshot_json(std::string_view text, const std::string& origin);
Snapshot load_snapshot(const std::string& path);

}  // namespace ibburn::counters
