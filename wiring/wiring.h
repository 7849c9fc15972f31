#pragma once
// The site's wiring list (the plan of every cable). CSV format, fixed (README "Wiring CSV"):
// UTF-8, '#' starts a comment, header row required: a_node,a_port,b_node,b_port,rate,cable,plane
// (rate, cable and plane columns may be omitted; empty rate = any; plane: the subnet the cable
// is in, 1..N, for a cluster of several planes, one per rail). Node names are switch names
// (node-name-map) or HCA node descriptions ("host mlx5_N"). One line per cable, ends unordered.
#include <optional>
#include <string>
#include <vector>

#include "topo/link_rate.h"

namespace ibburn::wiring {

struct CableEnd {
  std::string node;
  int port = 0;
  bool operator==(const CableEnd&) const = default;
};

struct Cable {
  CableEnd a, b;
  std::optional<topo::LinkRate> rate;  // nullopt = any
  std::string label;                   // free text, may be empty
  int line = 0;                        // source line, for messages (0 when generated)
  int plane = 0;                       // 1..N; 0: the design has one subnet
};

struct Wiring {
  std::vector<Cable> cables;
  std::string origin;  // file name, for messages
  // The highest plane a cable names (0: one subnet). A design with planes gives every cable one.
  int planes() const;
};

// Throws InputError(file:line) on malformed rows, unknown columns, bad ports or rates,
// or a port used by two cables.
Wiring parse_wiring_csv(const std::string& text, const std::string& origin);
Wiring load_wiring_csv(const std::string& path);
std::string to_csv(const Wiring& w);

}  // namespace ibburn::wiring
