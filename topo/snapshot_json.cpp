#include "topo/snapshot_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "common/error.h"
#include "common/guid.h"
#include "topo/fabric_io.h"
#include "topo/text_scan.h"

namespace ibburn::topo {
namespace {

using json = nlohmann::json;

std::string guid_text(uint64_t g) { return Guid{g}.text(); }

// "4xNDR"; an unknown width or speed is "?" ("4x?", "?xNDR").
std::string rate_text(LinkRate r) {
  return (r.width == Width::Unknown ? std::string("?") : std::to_string(lanes(r.width))) + "x" +
         (r.speed == Speed::Unknown ? std::string("?") : to_string(r.speed));
}

// The writer appends text directly (building a JSON tree for 70k nodes cost seconds);
// nlohmann only escapes the free-text strings.
void put_string(std::string& out, const std::string& s) {
  out += json(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

void put_field(std::string& out, const char* key, const std::string& quoted_value) {
  out += ",\"";
  out += key;
  out += "\":";
  out += quoted_value;
}

void put_port(std::string& out, const Port& p) {
  out += "{\"number\":" + std::to_string(p.number);
  // Fields at their default value are left out; the reader restores the defaults.
  if (p.guid) put_field(out, "guid", "\"" + guid_text(p.guid) + "\"");
  if (p.lid) put_field(out, "lid", std::to_string(p.lid));
  if (p.lmc) put_field(out, "lmc", std::to_string(p.lmc));
  if (p.state != PortState::Unknown) put_field(out, "state", std::string("\"") + to_string(p.state) + "\"");
  if (p.phys != PhysState::Unknown) put_field(out, "phys", std::string("\"") + to_string(p.phys) + "\"");
  if (p.active != LinkRate{}) put_field(out, "active", "\"" + rate_text(p.active) + "\"");
  if (p.supported != LinkRate{}) put_field(out, "supported", "\"" + rate_text(p.supported) + "\"");
  if (p.enabled != LinkRate{}) put_field(out, "enabled", "\"" + rate_text(p.enabled) + "\"");
  if (!p.label.empty()) {
    out += ",\"label\":";
    put_string(out, p.label);
  }
  if (p.peer_unreached) put_field(out, "peer_unreached", "true");
  out += '}';
}

void put_node(std::string& out, const Node& n) {
  out += std::string("{\"type\":\"") + to_string(n.type) + "\"";
  put_field(out, "guid", "\"" + guid_text(n.guid) + "\"");
  put_field(out, "sysimg_guid", "\"" + guid_text(n.sysimg_guid) + "\"");
  put_field(out, "vendor_id", std::to_string(n.vendor_id));
  put_field(out, "device_id", std::to_string(n.device_id));
  out += ",\"description\":";
  put_string(out, n.description);
  out += ",\"name\":";
  put_string(out, n.name);
  put_field(out, "num_ports", std::to_string(n.num_ports));
  out += ",\"ports\":[";
  for (size_t i = 0; i < n.ports.size(); ++i) {
    if (i) out += ',';
    put_port(out, n.ports[i]);
  }
  out += "]}";
}

// Reads a snapshot, naming the JSON path of whatever breaks the schema.
class SnapshotReader {
 public:
  SnapshotReader(const std::string& origin) : origin_(origin) {}

  Fabric read(const json& root) {
    if (!root.is_object()) fail("", "the top level must be an object");
    if (str(root, "format", "") != kSnapshotFormat)
      fail("format", std::string("must be \"") + kSnapshotFormat + "\" (this is not an ibburn fabric snapshot)");
    int64_t version = integer(root, "version", "", 0, INT32_MAX);
    if (version != kSnapshotVersion)
      fail("version",
           "is " + std::to_string(version) + "; this ibburn reads version " + std::to_string(kSnapshotVersion));
    const json& nodes = member(root, "nodes", "");
    if (!nodes.is_array()) fail("nodes", "must be an array");
    Fabric f;
    for (size_t i = 0; i < nodes.size(); ++i) read_node(f, nodes[i], "nodes[" + std::to_string(i) + "]");
    if (root.contains("links")) read_links(f, root["links"]);
    f.reindex_names();
    return f;
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& reason) const {
    throw InputError(origin_, 0, (path.empty() ? "" : path + ": ") + reason);
  }

  static std::string join(const std::string& path, const char* key) { return path.empty() ? key : path + "." + key; }

  const json& member(const json& obj, const char* key, const std::string& path) const {
    auto it = obj.find(key);
    if (it == obj.end()) fail(join(path, key), "missing");
    return *it;
  }

  std::string str(const json& obj, const char* key, const std::string& path,
                  const std::string* fallback = nullptr) const {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (fallback) return *fallback;
      fail(join(path, key), "missing");
    }
    if (!it->is_string()) fail(join(path, key), "must be a string");
    return it->get<std::string>();
  }
  std::string str(const json& obj, const char* key, const std::string& path, const char* fallback) const {
    std::string fb = fallback;
    return str(obj, key, path, &fb);
  }

  int64_t integer(const json& obj, const char* key, const std::string& path, int64_t min, int64_t max,
                  std::optional<int64_t> fallback = std::nullopt) const {
    auto it = obj.find(key);
    if (it == obj.end()) {
      if (fallback) return *fallback;
      fail(join(path, key), "missing");
    }
    if (!it->is_number_integer()) fail(join(path, key), "must be an integer");
    int64_t v = it->is_number_unsigned() && it->get<uint64_t>() > static_cast<uint64_t>(INT64_MAX) ? INT64_MAX
                                                                                                   : it->get<int64_t>();
    if (v < min || v > max)
      fail(join(path, key), std::to_string(v) + " is outside " + std::to_string(min) + ".." + std::to_string(max));
    return v;
  }

  uint64_t guid(const json& obj, const char* key, const std::string& path, bool required) const {
    if (!required && !obj.contains(key)) return 0;
    std::string s = str(obj, key, path);
    auto v = s.starts_with("0x") ? scan::parse_hex64(s) : std::nullopt;
    if (!v) fail(join(path, key), scan::bad_guid_reason("", s) + " (expected \"0x\" and 1 to 16 hex digits)");
    return *v;
  }

  template <typename Enum, int N>
  Enum named(const json& obj, const char* key, const std::string& path, const char* (*name)(Enum)) const {
    if (!obj.contains(key)) return Enum{};
    std::string s = str(obj, key, path);
    std::string allowed;
    for (int i = 0; i < N; ++i) {
      Enum e = static_cast<Enum>(i);
      if (s == name(e)) return e;
      allowed += (i ? ", " : "") + std::string(name(e));
    }
    fail(join(path, key), scan::quote(s) + " is not one of " + allowed);
  }

  LinkRate rate(const json& obj, const char* key, const std::string& path) const {
    if (!obj.contains(key)) return {};
    std::string s = str(obj, key, path);
    size_t x = s.find('x');
    LinkRate r;
    bool ok = x != std::string::npos;
    if (ok && s.substr(0, x) != "?") {
      auto w = scan::parse_compat_width(s.substr(0, x + 1));
      ok = w && *w != Width::Unknown;
      if (ok) r.width = *w;
    }
    if (ok && s.substr(x + 1) != "?") {
      auto sp = scan::parse_compat_speed(s.substr(x + 1));
      ok = sp && *sp != Speed::Unknown;
      if (ok) r.speed = *sp;
    }
    if (!ok) fail(join(path, key), scan::quote(s) + " is not a rate such as \"4xNDR\" (\"?\" for an unknown part)");
    return r;
  }

  void read_node(Fabric& f, const json& j, const std::string& path) {
    if (!j.is_object()) fail(path, "must be an object");
    NodeType type = named<NodeType, 4>(j, "type", path, to_string);
    if (!j.contains("type")) fail(join(path, "type"), "missing");
    uint64_t g = guid(j, "guid", path, true);
    int num_ports = static_cast<int>(integer(j, "num_ports", path, 0, 255));
    std::string desc = str(j, "description", path, "");
    NodeId id = f.add_node(type, g, desc, num_ports);
    Node& n = f.node(id);
    n.name = str(j, "name", path, &desc);
    n.sysimg_guid = guid(j, "sysimg_guid", path, false);
    n.vendor_id = static_cast<uint32_t>(integer(j, "vendor_id", path, 0, 0xffffff, 0));
    n.device_id = static_cast<uint32_t>(integer(j, "device_id", path, 0, UINT32_MAX, 0));
    if (!j.contains("ports")) return;
    const json& ports = j["ports"];
    if (!ports.is_array()) fail(join(path, "ports"), "must be an array");
    std::vector<bool> seen(n.ports.size(), false);
    for (size_t i = 0; i < ports.size(); ++i) {
      std::string pp = path + ".ports[" + std::to_string(i) + "]";
      const json& pj = ports[i];
      if (!pj.is_object()) fail(pp, "must be an object");
      int number = static_cast<int>(integer(pj, "number", pp, 0, num_ports));
      if (seen[number]) fail(join(pp, "number"), std::to_string(number) + " appears twice in this node");
      seen[number] = true;
      Port& p = n.ports[number];
      p.guid = guid(pj, "guid", pp, false);
      p.lid = static_cast<uint16_t>(integer(pj, "lid", pp, 0, 0xffff, 0));
      p.lmc = static_cast<uint8_t>(integer(pj, "lmc", pp, 0, 7, 0));
      p.state = named<PortState, 5>(pj, "state", pp, to_string);
      p.phys = named<PhysState, 8>(pj, "phys", pp, to_string);
      p.active = rate(pj, "active", pp);
      p.supported = rate(pj, "supported", pp);
      p.enabled = rate(pj, "enabled", pp);
      p.label = str(pj, "label", pp, "");
      if (pj.contains("peer_unreached")) {
        if (!pj["peer_unreached"].is_boolean()) fail(join(pp, "peer_unreached"), "must be true or false");
        p.peer_unreached = pj["peer_unreached"].get<bool>();
      }
    }
  }

  void read_links(Fabric& f, const json& links) {
    if (!links.is_array()) fail("links", "must be an array");
    for (size_t i = 0; i < links.size(); ++i) {
      std::string path = "links[" + std::to_string(i) + "]";
      const json& l = links[i];
      if (!l.is_array() || l.size() != 4 ||
          !std::all_of(l.begin(), l.end(), [](const json& v) { return v.is_number_integer(); }))
        fail(path, "must be [node, port, node, port] with node indexes into \"nodes\"");
      PortEnd ends[2];
      for (int k = 0; k < 2; ++k) {
        int64_t node = l[2 * k].get<int64_t>(), port = l[2 * k + 1].get<int64_t>();
        if (node < 0 || node >= static_cast<int64_t>(f.size()))
          fail(path, "node index " + std::to_string(node) + " is not in \"nodes\" (0.." +
                         std::to_string(static_cast<int64_t>(f.size()) - 1) + ")");
        if (port < 1 || port > f.node(static_cast<NodeId>(node)).num_ports)
          fail(path, "port " + std::to_string(port) + " does not exist on node " + std::to_string(node));
        ends[k] = {static_cast<NodeId>(node), static_cast<int>(port)};
      }
      if (ends[0] == ends[1]) fail(path, "links a port to itself");
      for (int k = 0; k < 2; ++k)
        if (f.port(ends[k]).linked())
          fail(path, "port " + std::to_string(ends[k].port) + " of node " + std::to_string(ends[k].node) +
                         " is already linked by an earlier entry");
      f.connect(ends[0], ends[1]);
    }
  }

  const std::string& origin_;
};

}  // namespace

// One node or link per line: readable, diffable, and syntax errors point at a useful line.
std::string to_json_text(const Fabric& fabric) {
  std::string out;
  out.reserve(fabric.size() * 300);
  out += "{\"format\": \"";
  out += kSnapshotFormat;
  out += "\", \"version\": " + std::to_string(kSnapshotVersion) + ",\n\"nodes\": [";
  for (size_t i = 0; i < fabric.size(); ++i) {
    out += i ? ",\n  " : "\n  ";
    put_node(out, fabric.node(static_cast<NodeId>(i)));
  }
  out += "\n],\n\"links\": [";
  auto links = fabric.links();
  for (size_t i = 0; i < links.size(); ++i) {
    const Link& l = links[i];
    out += i ? ",\n  [" : "\n  [";
    out += std::to_string(l.a.node) + ", " + std::to_string(l.a.port) + ", " + std::to_string(l.b.node) + ", " +
           std::to_string(l.b.port) + "]";
  }
  out += "\n]}\n";
  return out;
}

Fabric parse_snapshot_json(std::string_view text, const std::string& origin) {
  json root;
  try {
    root = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // nlohmann reports a byte offset; editors want a line.
    size_t end = std::min(e.byte, text.size());
    int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(end), '\n'));
    std::string msg = e.what();
    if (size_t colon = msg.find("column "); colon != std::string::npos)
      if (size_t sep = msg.find(": ", colon); sep != std::string::npos) msg = msg.substr(sep + 2);
    throw InputError(origin, line, "invalid JSON: " + msg);
  } catch (const json::exception& e) {
    // Number overflow (out_of_range.406) carries no position.
    std::string msg = e.what();
    if (size_t end = msg.find("] "); end != std::string::npos) msg = msg.substr(end + 2);
    if (msg.size() > 160) msg = msg.substr(0, 157) + "...";
    throw InputError(origin, 0, "invalid JSON: " + msg);
  }
  return SnapshotReader(origin).read(root);
}

}  // namespace ibburn::topo
