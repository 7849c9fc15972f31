#pragma once
// What puts a route on a virtual lane: the SL its source uses towards its destination (the SA
// answers it per pair; LASH and DFSSSP give pairs different SLs) and each switch's SL2VL
// table, which maps (in port, out port, SL) to the VL the next cable carries it on. Pure data
// and its JSON file ("ibburn-vls", saved by `topo routes --save-vls`).
#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ibburn::route_check {

inline constexpr int kSls = 16;

// One switch's SL2VL: a 16-entry table per (in port, out port), ports 0..ports.
struct Sl2VlTable {
  int ports = 0;
  std::vector<std::array<uint8_t, kSls>> by_pair;  // [in * (ports + 1) + out]
  explicit Sl2VlTable(int port_count = 0)
      : ports(port_count), by_pair(static_cast<size_t>(port_count + 1) * static_cast<size_t>(port_count + 1)) {}
  std::array<uint8_t, kSls>& at(int in, int out) { return by_pair[static_cast<size_t>(in * (ports + 1) + out)]; }
  // VL 0 for ports outside the table.
  uint8_t vl(int in, int out, int sl) const {
    if (in < 0 || out < 0 || in > ports || out > ports) return 0;
    return by_pair[static_cast<size_t>(in * (ports + 1) + out)][static_cast<size_t>(sl & 15)];
  }
};

struct VlTables {
  std::unordered_map<uint64_t, Sl2VlTable> by_switch_guid;
  // (source LID << 16 | destination LID) -> SL; pairs not listed use default_sl.
  std::unordered_map<uint32_t, uint8_t> path_sl;
  uint8_t default_sl = 0;
  uint8_t sl(uint16_t slid, uint16_t dlid) const {
    const auto it = path_sl.find((static_cast<uint32_t>(slid) << 16) | dlid);
    return it == path_sl.end() ? default_sl : it->second;
  }
};

std::string vl_tables_to_json_text(const VlTables& vls);
VlTables load_vl_tables_json(const std::string& path);  // InputError naming the file on bad content

}  // namespace ibburn::route_check
