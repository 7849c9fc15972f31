#include "topo/snapshot_json.h"

#include <algorithm>
#include <bitset>
#include <cstdint>
#include <vector>

#include "common/error.h"
#include "common/guid.h"
#include "common/json_document.h"
#include "common/json_writer.h"
#include "topo/fabric_io.h"
#include "topo/text_scan.h"

namespace ibburn::topo {
namespace {

std::string guid_text(uint64_t g) { return Guid{g}.text(); }

// "4xNDR"; an unknown width or speed is "?" ("4x?", "?xNDR").
std::string rate_text(LinkRate r) {
  return (r.width == Width::Unknown ? std::string("?") : std::to_string(lanes(r.width))) + "x" +
         (r.speed == Speed::Unknown ? std::string("?") : to_string(r.speed));
}

// The writer appends text directly (building a JSON tree for 70k nodes cost seconds).
void put_string(std::string& out, const std::string& s) { append_json_string(out, s); }

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

// `subnet` only when the snapshot is several subnets merged (a node of one is in it).
void put_node(std::string& out, const Node& n, bool subnet) {
  out += std::string("{\"type\":\"") + to_string(n.type) + "\"";
  if (subnet && n.subnet >= 0) put_field(out, "subnet", std::to_string(n.subnet));
  put_field(out, "guid", "\"" + guid_text(n.guid) + "\"");
  put_field(out, "sysimg_guid", "\"" + guid_text(n.sysimg_guid) + "\"");
  put_field(out, "vendor_id", std::to_string(n.vendor_id));
  put_field(out, "device_id", std::to_string(n.device_id));
  out += ",\"description\":";
  put_string(out, n.description);
  out += ",\"name\":";
  put_string(out, n.name);
  put_field(out, "num_ports", std::to_string(n.num_ports));
  if (n.base_port0) put_field(out, "base_port0", "true");
  out += ",\"ports\":[";
  for (size_t i = 0; i < n.ports.size(); ++i) {
    if (i) out += ',';
    put_port(out, n.ports[i]);
  }
  out += "]}";
}

// Reads a snapshot, naming the JSON path of whatever breaks the schema. Fields the writer
// leaves out at their default value are optional here; the others are required.
class SnapshotReader {
 public:
  SnapshotReader(const std::string& origin) : origin_(origin) {}

  Fabric read(const JsonDocument& doc) {
    if (!doc.root().is_object()) throw InputError(origin_, 0, "the top level must be an object");
    const JsonObject root = doc.object();
    if (root.optional<std::string_view>("format").value_or("") != kSnapshotFormat)
      root.fail("format", std::string("must be \"") + kSnapshotFormat + "\" (this is not an ibburn fabric snapshot)");
    const auto version = root.get<int64_t>("version", 0, INT32_MAX);
    if (version != kSnapshotVersion)
      root.fail("version",
                "is " + std::to_string(version) + "; this ibburn reads version " + std::to_string(kSnapshotVersion));
    Fabric f;
    f.reserve(root.array("nodes").size());
    if (root.has("subnets")) root.each_object("subnets", [&](const JsonObject& sub) { read_subnet(f, sub); });
    root.each_object("nodes", [&](const JsonObject& node) { read_node(f, node); });
    if (root.has("links")) read_links(f, root);
    // add_node indexed each node under its description; only renamed nodes need the index again.
    if (renamed_) f.reindex_names();
    return f;
  }

 private:
  static uint64_t guid(const JsonObject& obj, std::string_view key) {
    const auto s = obj.get<std::string_view>(key);
    auto v = s.starts_with("0x") ? scan::parse_hex64(s) : std::nullopt;
    if (!v) obj.fail(key, scan::bad_guid_reason("", s) + " (expected \"0x\" and 1 to 16 hex digits)");
    return *v;
  }

  template <typename Enum, int N>
  static Enum named(const JsonObject& obj, std::string_view key, const char* (*name)(Enum)) {
    auto s = obj.optional<std::string_view>(key);
    if (!s) return Enum{};
    for (int i = 0; i < N; ++i)
      if (*s == name(static_cast<Enum>(i))) return static_cast<Enum>(i);
    std::string allowed;  // built only here: ~464k ports pass through the loop above
    for (int i = 0; i < N; ++i) allowed += (i ? ", " : "") + std::string(name(static_cast<Enum>(i)));
    obj.fail(key, scan::quote(*s) + " is not one of " + allowed);
  }

  static LinkRate rate(const JsonObject& obj, std::string_view key) {
    auto text = obj.optional<std::string_view>(key);
    if (!text) return {};
    std::string_view s = *text;
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
    if (!ok) obj.fail(key, scan::quote(s) + " is not a rate such as \"4xNDR\" (\"?\" for an unknown part)");
    return r;
  }

  static void read_subnet(Fabric& f, const JsonObject& j) {
    Subnet s;
    s.source = std::string(j.get<std::string_view>("source"));
    s.plane = static_cast<int>(j.optional<int64_t>("plane", 0, 255).value_or(0));
    s.prefix = j.has("prefix") ? guid(j, "prefix") : 0;
    s.sm_lid = static_cast<uint16_t>(j.optional<int64_t>("sm_lid", 0, 0xffff).value_or(0));
    s.sm_guid = j.has("sm_guid") ? guid(j, "sm_guid") : 0;
    s.sm_master = j.optional<bool>("sm_master").value_or(false);
    s.sm_probed = j.optional<bool>("sm_probed").value_or(false);
    s.error = std::string(j.optional<std::string_view>("error").value_or(""));
    f.subnets().push_back(std::move(s));
  }

  void read_node(Fabric& f, const JsonObject& j) {
    NodeType type = named<NodeType, 4>(j, "type", to_string);
    if (!j.has("type")) j.fail("type", "missing");
    uint64_t g = guid(j, "guid");
    const auto num_ports = static_cast<int>(j.get<int64_t>("num_ports", 0, 255));
    std::string desc(j.optional<std::string_view>("description").value_or(""));
    NodeId id = f.add_node(type, g, desc, num_ports);
    Node& n = f.node(id);
    if (const auto name = j.optional<std::string_view>("name"); name && *name != n.name) {
      n.name = *name;
      renamed_ = true;
    }
    n.sysimg_guid = j.has("sysimg_guid") ? guid(j, "sysimg_guid") : 0;
    n.vendor_id = static_cast<uint32_t>(j.optional<int64_t>("vendor_id", 0, 0xffffff).value_or(0));
    n.device_id = static_cast<uint32_t>(j.optional<int64_t>("device_id", 0, UINT32_MAX).value_or(0));
    n.base_port0 = j.optional<bool>("base_port0").value_or(false);
    // A snapshot of one subnet leaves its nodes' subnet out.
    const auto subnets = static_cast<int64_t>(f.subnets().size());
    if (subnets > 0) n.subnet = static_cast<int>(j.optional<int64_t>("subnet", 0, subnets - 1).value_or(0));
    if (!j.has("ports")) return;
    std::bitset<256> seen;  // port numbers are 0..num_ports <= 255; no allocation per node
    j.each_object("ports", [&](const JsonObject& pj) {
      const auto number = static_cast<int>(pj.get<int64_t>("number", 0, num_ports));
      if (seen[number]) pj.fail("number", std::to_string(number) + " appears twice in this node");
      seen[number] = true;
      Port& p = n.ports[number];
      p.guid = pj.has("guid") ? guid(pj, "guid") : 0;
      p.lid = static_cast<uint16_t>(pj.optional<int64_t>("lid", 0, 0xffff).value_or(0));
      p.lmc = static_cast<uint8_t>(pj.optional<int64_t>("lmc", 0, 7).value_or(0));
      p.state = named<PortState, 5>(pj, "state", to_string);
      p.phys = named<PhysState, 8>(pj, "phys", to_string);
      p.active = rate(pj, "active");
      p.supported = rate(pj, "supported");
      p.enabled = rate(pj, "enabled");
      p.label = pj.optional<std::string_view>("label").value_or("");
      p.peer_unreached = pj.optional<bool>("peer_unreached").value_or(false);
    });
  }

  // Links are [node, port, node, port] arrays, checked as a whole: their messages name the link.
  static void read_links(Fabric& f, const JsonObject& root) {
    size_t i = 0;
    for (simdjson::dom::element l : root.array("links")) {
      auto fail = [&](const std::string& reason) { root.fail("links[" + std::to_string(i) + "]", reason); };
      int64_t v[4];
      simdjson::dom::array a;
      bool ok = l.get_array().get(a) == simdjson::SUCCESS && a.size() == 4;
      for (size_t k = 0; ok && k < 4; ++k) ok = a.at(k).get_int64().get(v[k]) == simdjson::SUCCESS;
      if (!ok) fail("must be [node, port, node, port] with node indexes into \"nodes\"");
      PortEnd ends[2];
      for (int k = 0; k < 2; ++k) {
        int64_t node = v[2 * k], port = v[2 * k + 1];
        if (node < 0 || node >= static_cast<int64_t>(f.size()))
          fail("node index " + std::to_string(node) + " is not in \"nodes\" (0.." +
               std::to_string(static_cast<int64_t>(f.size()) - 1) + ")");
        if (port < 1 || port > f.node(static_cast<NodeId>(node)).num_ports)
          fail("port " + std::to_string(port) + " does not exist on node " + std::to_string(node));
        ends[k] = {static_cast<NodeId>(node), static_cast<int>(port)};
      }
      if (ends[0] == ends[1]) fail("links a port to itself");
      for (int k = 0; k < 2; ++k)
        if (f.port(ends[k]).linked())
          fail("port " + std::to_string(ends[k].port) + " of node " + std::to_string(ends[k].node) +
               " is already linked by an earlier entry");
      f.connect(ends[0], ends[1]);
      ++i;
    }
  }

  const std::string& origin_;
  bool renamed_ = false;  // a node's name differs from its description
};

}  // namespace

// One node or link per line: readable, diffable, and syntax errors point at a useful line.
std::string to_json_text(const Fabric& fabric) {
  std::string out;
  out.reserve(fabric.size() * 300);
  out += "{\"format\": \"";
  out += kSnapshotFormat;
  out += "\", \"version\": " + std::to_string(kSnapshotVersion) + ",\n";
  if (!fabric.subnets().empty()) {
    out += "\"subnets\": [";
    for (size_t i = 0; i < fabric.subnets().size(); ++i) {
      const Subnet& sub = fabric.subnets()[i];
      out += i ? ",\n  {\"source\":" : "\n  {\"source\":";
      put_string(out, sub.source);
      put_field(out, "plane", std::to_string(sub.plane));
      put_field(out, "prefix", "\"" + guid_text(sub.prefix) + "\"");
      put_field(out, "sm_lid", std::to_string(sub.sm_lid));
      put_field(out, "sm_guid", "\"" + guid_text(sub.sm_guid) + "\"");
      put_field(out, "sm_master", sub.sm_master ? "true" : "false");
      put_field(out, "sm_probed", sub.sm_probed ? "true" : "false");
      if (!sub.error.empty()) {
        out += ",\"error\":";
        put_string(out, sub.error);
      }
      out += '}';
    }
    out += "\n],\n";
  }
  out += "\"nodes\": [";
  for (size_t i = 0; i < fabric.size(); ++i) {
    out += i ? ",\n  " : "\n  ";
    put_node(out, fabric.node(static_cast<NodeId>(i)), fabric.subnets().size() > 1);
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
  const JsonDocument doc(text, origin);
  return SnapshotReader(origin).read(doc);
}

}  // namespace ibburn::topo
