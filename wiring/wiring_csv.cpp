// Wiring CSV reader and writer (format: wiring/wiring.h, docs/wiring.md).
#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>
#include <unordered_map>

#include "common/csv.h"
#include "common/error.h"
#include "common/file_io.h"
#include "common/text.h"
#include "wiring/wiring.h"

namespace ibburn::wiring {
namespace {

enum Column { kANode, kAPort, kBNode, kBPort, kRate, kCable, kPlane, kColumns };
constexpr std::array<std::string_view, kColumns> kColumnNames = {"a_node", "a_port", "b_node", "b_port",
                                                                 "rate",   "cable",  "plane"};
constexpr const char* kHeaderHint = "a_node,a_port,b_node,b_port[,rate[,cable[,plane]]]";
// Planes are subnets side by side (one per rail); more than this is not a cluster's design.
constexpr int kMaxPlane = 64;
// PortInfo numbers ports with 8 bits; 255 is reserved and 0 is a switch's management port.
constexpr int kMaxPort = 254;

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// Maps header fields to columns; index[c] = field position or -1.
std::array<int, kColumns> parse_header(const std::vector<std::string>& fields, const std::string& origin, int lineno) {
  std::array<int, kColumns> index;
  index.fill(-1);
  std::vector<std::string> unknown;
  for (size_t f = 0; f < fields.size(); ++f) {
    std::string name = lower(fields[f]);
    int col = -1;
    for (int c = 0; c < kColumns; ++c)
      if (name == kColumnNames[c]) col = c;
    if (col < 0) {
      unknown.push_back(fields[f]);
      continue;
    }
    if (index[col] >= 0)
      throw InputError(origin, lineno, "column '" + std::string(kColumnNames[col]) + "' appears twice in the header");
    index[col] = static_cast<int>(f);
  }
  if (unknown.size() == fields.size())
    throw InputError(origin, lineno, std::string("missing header row: the first row must be ") + kHeaderHint);
  if (!unknown.empty())
    throw InputError(origin, lineno, "unknown column '" + unknown.front() + "' (columns: " + kHeaderHint + ")");
  for (int c : {kANode, kAPort, kBNode, kBPort})
    if (index[c] < 0)
      throw InputError(origin, lineno,
                       "header lacks column '" + std::string(kColumnNames[c]) + "' (columns: " + kHeaderHint + ")");
  return index;
}

int parse_port(const std::string& text, const char* column, const std::string& origin, int lineno) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < 1 || value > kMaxPort)
    throw InputError(
        origin, lineno,
        std::string("bad ") + column + " '" + text + "' (expected a port number 1.." + std::to_string(kMaxPort) + ")");
  return value;
}

std::string port_key(const CableEnd& e) { return e.node + '\x1f' + std::to_string(e.port); }

bool needs_quotes(const std::string& s) {
  if (s.empty()) return false;
  if (is_blank(s.front()) || is_blank(s.back())) return true;
  return s.find_first_of(",\"#\r\n") != std::string::npos;
}

void append_field(std::string& out, const std::string& s) {
  if (!needs_quotes(s)) {
    out += s;
    return;
  }
  out += '"';
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

int parse_plane(const std::string& text, const std::string& origin, int lineno) {
  int plane = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), plane);
  if (ec != std::errc() || end != text.data() + text.size() || plane < 1 || plane > kMaxPlane)
    throw InputError(origin, lineno,
                     "bad plane '" + text + "' (expected 1.." + std::to_string(kMaxPlane) + "; empty = one subnet)");
  return plane;
}

// A design with planes gives every cable one, and a node lies in one plane: a switch or HCA
// whose cables name two planes is a mistake in the list, not a cable into the wrong plane.
void check_planes(const Wiring& w) {
  if (w.planes() == 0) return;
  std::unordered_map<std::string_view, const Cable*> first;
  for (const Cable& c : w.cables) {
    if (c.plane == 0)
      throw InputError(
          w.origin, c.line,
          "no plane for this cable while other cables name theirs (every cable of a design with planes names one)");
    for (const CableEnd* e : {&c.a, &c.b}) {
      auto [it, fresh] = first.emplace(e->node, &c);
      if (!fresh && it->second->plane != c.plane)
        throw InputError(w.origin, c.line,
                         e->node + " is in plane " + std::to_string(c.plane) + " here and in plane " +
                             std::to_string(it->second->plane) + " on line " + std::to_string(it->second->line) +
                             " (a node lies in one plane)");
    }
  }
}

}  // namespace

int Wiring::planes() const {
  int n = 0;
  for (const Cable& c : cables) n = std::max(n, c.plane);
  return n;
}

Wiring parse_wiring_csv(const std::string& text, const std::string& origin) {
  Wiring w;
  w.origin = origin;
  std::string_view all(text);
  if (all.substr(0, 3) == "\xEF\xBB\xBF") all.remove_prefix(3);  // spreadsheet UTF-8 BOM
  std::array<int, kColumns> index{};
  size_t columns = 0;
  std::unordered_map<std::string, int> used;  // port -> line of the cable using it
  int lineno = 0;
  for (size_t pos = 0; pos < all.size();) {
    size_t nl = all.find('\n', pos);
    size_t end = nl == std::string_view::npos ? all.size() : nl;
    std::string_view line = all.substr(pos, end - pos);
    pos = end + 1;
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string> fields = split_csv_line(line, origin, lineno);
    if (fields.empty()) continue;
    if (columns == 0) {
      index = parse_header(fields, origin, lineno);
      columns = fields.size();
      continue;
    }
    if (fields.size() != columns)
      throw InputError(
          origin, lineno,
          "expected " + std::to_string(columns) + " fields as in the header, found " + std::to_string(fields.size()));
    Cable c;
    c.line = lineno;
    c.a.node = fields[index[kANode]];
    c.b.node = fields[index[kBNode]];
    if (c.a.node.empty()) throw InputError(origin, lineno, "empty a_node");
    if (c.b.node.empty()) throw InputError(origin, lineno, "empty b_node");
    c.a.port = parse_port(fields[index[kAPort]], "a_port", origin, lineno);
    c.b.port = parse_port(fields[index[kBPort]], "b_port", origin, lineno);
    if (index[kRate] >= 0 && !fields[index[kRate]].empty()) {
      const std::string& r = fields[index[kRate]];
      c.rate = topo::parse_link_rate(r);
      if (!c.rate)
        throw InputError(origin, lineno,
                         "unknown rate '" + r + "' (expected width x speed such as 4xNDR or 4xHDR; empty = any)");
    }
    if (index[kCable] >= 0) c.label = fields[index[kCable]];
    if (index[kPlane] >= 0 && !fields[index[kPlane]].empty())
      c.plane = parse_plane(fields[index[kPlane]], origin, lineno);
    if (c.a == c.b)
      throw InputError(origin, lineno, "cable connects " + c.a.node + "[" + std::to_string(c.a.port) + "] to itself");
    for (const CableEnd* e : {&c.a, &c.b}) {
      auto [it, fresh] = used.emplace(port_key(*e), lineno);
      if (!fresh)
        throw InputError(origin, lineno,
                         e->node + "[" + std::to_string(e->port) + "] is already used by the cable on line " +
                             std::to_string(it->second));
    }
    w.cables.push_back(std::move(c));
  }
  if (columns == 0)
    throw InputError(origin, 0,
                     std::string("no header row (empty or only comments): the first row must be ") + kHeaderHint);
  check_planes(w);
  return w;
}

Wiring load_wiring_csv(const std::string& path) { return parse_wiring_csv(read_file(path), path); }

std::string to_csv(const Wiring& w) {
  const bool planes = w.planes() > 0;
  std::string out =
      planes ? "a_node,a_port,b_node,b_port,rate,cable,plane\n" : "a_node,a_port,b_node,b_port,rate,cable\n";
  out.reserve(out.size() + w.cables.size() * 64);
  for (const Cable& c : w.cables) {
    append_field(out, c.a.node);
    out += ',' + std::to_string(c.a.port) + ',';
    append_field(out, c.b.node);
    out += ',' + std::to_string(c.b.port) + ',';
    if (c.rate) out += topo::to_string(*c.rate);
    out += ',';
    append_field(out, c.label);
    if (planes) out += ',' + std::to_string(c.plane);
    out += '\n';
  }
  return out;
}

}  // namespace ibburn::wiring
