#pragma once
// Links ports as a text parser meets them and remembers which input line made each link,
// so that a line contradicting an earlier one gets an error naming both lines.
#include <functional>
#include <string>
#include <vector>

#include "topo/fabric.h"

namespace ibburn::topo {

class LinkLedger {
 public:
  using PortNamer = std::function<std::string(PortEnd)>;
  LinkLedger(std::string origin, PortNamer namer) : origin_(std::move(origin)), namer_(std::move(namer)) {}

  // Connects a and b (nothing to do when they are already linked to each other). Throws
  // InputError(origin, line, ...) when either port is linked elsewhere or a == b.
  void link(Fabric& fabric, PortEnd a, PortEnd b, int line);

 private:
  int& line_of(PortEnd e);
  std::string origin_;
  PortNamer namer_;
  std::vector<std::vector<int>> line_of_;  // [node][port]: the line that linked the port
};

}  // namespace ibburn::topo
