#include "topo/node_name_map.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "common/error.h"
#include "common/file_io.h"
#include "common/guid.h"
#include "topo/fabric.h"

namespace ibburn::topo {

NodeNameMap NodeNameMap::load(const std::string& path) { return parse(read_file(path), path); }

NodeNameMap NodeNameMap::parse(const std::string& text, const std::string& origin) {
  NodeNameMap m;
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    size_t i = line.find_first_not_of(" \t\r");
    if (i == std::string::npos || line[i] == '#') continue;
    size_t end = line.find_first_of(" \t", i);
    if (end == std::string::npos) throw InputError(origin, lineno, "expected 0xGUID \"name\"");
    std::string guid_text = line.substr(i, end - i);
    uint64_t guid = 0;
    try {
      size_t used = 0;
      guid = std::stoull(guid_text, &used, 0);
      if (used != guid_text.size()) throw std::invalid_argument("trailing");
    } catch (const std::exception&) {
      throw InputError(origin, lineno, "invalid GUID '" + guid_text + "'");
    }
    size_t q1 = line.find('"', end);
    size_t q2 = q1 == std::string::npos ? q1 : line.find('"', q1 + 1);
    std::string name;
    if (q1 != std::string::npos && q2 != std::string::npos) {
      name = line.substr(q1 + 1, q2 - q1 - 1);
    } else {
      // infiniband-diags also accepts an unquoted name
      size_t s = line.find_first_not_of(" \t", end);
      if (s == std::string::npos) throw InputError(origin, lineno, "missing name for " + guid_text);
      name = line.substr(s);
      while (!name.empty() && (name.back() == '\r' || name.back() == ' ' || name.back() == '\t')) name.pop_back();
    }
    m.add(guid, name);
  }
  return m;
}

const std::string* NodeNameMap::find(uint64_t guid) const {
  auto it = names_.find(guid);
  return it == names_.end() ? nullptr : &it->second;
}

void NodeNameMap::add(uint64_t guid, std::string name) { names_.emplace(guid, std::move(name)); }

void NodeNameMap::apply(Fabric& fabric) const {
  for (NodeId i = 0; i < fabric.size(); ++i) {
    Node& n = fabric.node(i);
    if (const std::string* name = find(n.guid)) n.name = *name;
  }
  fabric.reindex_names();
}

std::string NodeNameMap::to_text() const {
  std::vector<std::pair<uint64_t, std::string>> v(names_.begin(), names_.end());
  std::sort(v.begin(), v.end());
  std::string out;
  for (auto& [g, n] : v) {
    out += Guid{g}.text();
    out += " \"" + n + "\"\n";
  }
  return out;
}

}  // namespace ibburn::topo
