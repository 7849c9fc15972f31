#pragma once
// The small settings files `ibburn health` takes (--expect pins, --thresholds levels): one
// `key=value` per line, each side trimmed, '#' comments and blank lines skipped.
#include <string>
#include <vector>

namespace ibburn::health {

struct KeyValue {
  std::string key, value;
  int line = 0;  // 1-based, for the caller's messages
};

// Throws InputError(origin:line, "expected " + form) on a line without '=' or with an empty
// side; `form` names the line's shape ("PSID=version").
std::vector<KeyValue> parse_key_values(const std::string& text, const std::string& origin, const std::string& form);

}  // namespace ibburn::health
