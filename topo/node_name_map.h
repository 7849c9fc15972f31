#pragma once
// infiniband-diags node-name-map: `0x<node guid> "name"` per line, '#' comments,
// first entry for a GUID wins.
#include <cstdint>
#include <string>
#include <unordered_map>

namespace ibburn::topo {
class Fabric;

class NodeNameMap {
 public:
  static NodeNameMap load(const std::string& path);  // throws InputError(file:line)
  static NodeNameMap parse(const std::string& text, const std::string& origin);
  const std::string* find(uint64_t guid) const;
  void add(uint64_t guid, std::string name);  // keeps an existing entry (first wins)
  size_t size() const { return names_.size(); }
  // Applies names to the fabric's nodes (others keep their descriptions).
  void apply(Fabric& fabric) const;
  std::string to_text() const;  // sorted by GUID, loadable again

 private:
  std::unordered_map<uint64_t, std::string> names_;
};
}  // namespace ibburn::topo
