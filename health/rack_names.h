#pragma once
// Where a node stands, from its name (node-name-map or wiring list names): the name's
// components, split at '-', '_', '.', ' ', ';', ':' and '/', that read `row<N>` (its row) and
// `rack<N>` or `r<N>` (its rack), case-insensitive: "row2-r12-leaf03" is rack r12 of row row2.
// A name without them has no place. Pure.
#include <string>

namespace ibburn::health {

struct NodePlace {
  std::string row, rack;  // empty when the name has none; a rack is named with its row ("row2 r12")
};

NodePlace place_of(const std::string& name);

}  // namespace ibburn::health
