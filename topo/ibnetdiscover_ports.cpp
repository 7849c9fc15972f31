#include "topo/ibnetdiscover_ports.h"

#include <optional>
#include <unordered_map>

#include "common/error.h"
#include "common/guid.h"
#include "topo/link_ledger.h"
#include "topo/text_scan.h"

namespace ibburn::topo {
namespace {

using scan::next_token;
using scan::quote;
using scan::skip_space;

constexpr auto npos = std::string_view::npos;

std::optional<NodeType> node_type(std::string_view t) {
  if (t == "SW") return NodeType::Switch;
  if (t == "CA") return NodeType::CA;
  if (t == "RT") return NodeType::Router;
  return std::nullopt;
}

// One end as the report prints it: `CA   134  1 0x7cfe9003003b4bde`.
struct End {
  NodeType type;
  uint16_t lid;
  int port;
  uint64_t guid;
};

class PortsParser : scan::TextLoader {
 public:
  PortsParser(std::string_view text, const std::string& origin, const LoadOptions& options)
      : TextLoader(text, origin, options, [this](PortEnd e) { return port_label(e); }) {}

  Fabric run() {
    scan::LineReader reader(text_);
    std::string_view raw;
    while (reader.next(raw)) {
      line_ = reader.number();
      std::string_view s = scan::trim(raw);
      if (s.empty() || s.front() == '#') continue;
      if (scan::is_tool_noise(s))
        noise_.add(line_, s);
      else
        report_line(s);
    }
    if (fabric_.size() == 0) fail(0, "no port lines found");
    return finish();
  }

 private:
  std::string port_label(PortEnd e) const {
    const Node& n = fabric_.node(e.node);
    return std::string(to_string(n.type)) + " " + Guid{n.guid}.text() + "[" + std::to_string(e.port) + "]";
  }

  End end(std::string_view& s) {
    End e;
    std::string_view t = next_token(s);
    auto type = node_type(t);
    if (!type) fail(line_, "node type " + quote(t) + " is not CA, SW or RT");
    e.type = *type;
    t = next_token(s);
    auto lid = scan::parse_uint(t, 0xffff);
    if (!lid) fail(line_, "LID " + quote(t) + " is not a number from 0 to 65535");
    e.lid = static_cast<uint16_t>(*lid);
    t = next_token(s);
    auto port = scan::parse_uint(t, 255);
    if (!port || *port == 0) fail(line_, "port " + quote(t) + " is not a number from 1 to 255");
    e.port = static_cast<int>(*port);
    t = next_token(s);
    auto guid = t.starts_with("0x") ? scan::parse_hex64(t) : std::nullopt;
    if (!guid) fail(line_, scan::bad_guid_reason("port GUID", t));
    e.guid = *guid;
    return e;
  }

  // The node a port belongs to, created on first sight; `desc` names it.
  NodeId node_for(const End& e, std::string_view desc) {
    auto [it, fresh] = by_guid_.emplace(e.guid, static_cast<NodeId>(fabric_.size()));
    if (fresh) {
      NodeId id = fabric_.add_node(e.type, e.guid, std::string(desc), e.port);
      fabric_.node(id).sysimg_guid = 0;  // not in the report
      return id;
    }
    Node& n = fabric_.node(it->second);
    if (n.type != e.type)
      fail(line_, "GUID " + Guid{e.guid}.text() + " is a " + to_string(n.type) + " on an earlier line but a " +
                      to_string(e.type) + " here");
    return it->second;
  }

  // Records what the report says about one port: GUID, LID (a switch's LID is its port-0
  // LID, shared by every port).
  PortEnd place(const End& e, std::string_view desc) {
    NodeId id = node_for(e, desc);
    Node& n = fabric_.node(id);
    if (e.port >= static_cast<int>(n.ports.size())) {
      size_t old = n.ports.size();
      n.ports.resize(static_cast<size_t>(e.port) + 1);
      for (size_t i = old; i < n.ports.size(); ++i) n.ports[i].number = static_cast<int>(i);
      n.num_ports = e.port;
    }
    if (n.is_switch()) {
      for (Port& p : n.ports) {
        p.guid = e.guid;
        if (p.lid == 0) p.lid = e.lid;
      }
    } else {
      Port& p = n.ports[e.port];
      p.guid = e.guid;
      if (p.lid == 0) p.lid = e.lid;
    }
    return {id, e.port};
  }

  void report_line(std::string_view s) {
    End a = end(s);
    std::string_view wt = next_token(s), st = next_token(s);
    auto width = scan::parse_compat_width(wt);
    auto speed = scan::parse_compat_speed(st);
    if (!width || !speed)
      fail(line_,
           "expected a width and a speed such as \"4x EDR\", got " + quote(std::string(wt) + " " + std::string(st)));
    s = skip_space(s);
    if (!s.empty() && s.front() == '\'') {
      // An unlinked port: only its node's name follows.
      size_t close = s.rfind('\'');
      if (close == 0) fail(line_, "unclosed quote in the node name");
      place(a, s.substr(1, close - 1));
      return;
    }
    if (s.empty() || s.front() != '-')
      fail(line_, "expected \"- <peer>\" or a quoted node name after the rate, got " + quote(s));
    s.remove_prefix(1);
    End b = end(s);
    s = skip_space(s);
    size_t open = s.find('\''), close = s.rfind('\'');
    size_t sep = open == npos ? npos : s.find("' - '", open);
    if (s.empty() || s.front() != '(' || open == npos || sep == npos || sep + 4 > close)
      fail(line_, "expected ( 'name' - 'peer name' ) after the peer, got " + quote(s));
    std::string_view name_a = s.substr(open + 1, sep - open - 1);
    std::string_view name_b = s.substr(sep + 5, close - sep - 5);
    PortEnd pa = place(a, name_a);
    PortEnd pb = place(b, name_b);
    ledger_.link(fabric_, pa, pb, line_);
    Port& port_a = fabric_.port(pa);
    port_a.active = {*width, *speed};
    port_a.phys = PhysState::LinkUp;
    fabric_.port(pb).phys = PhysState::LinkUp;
  }

  std::unordered_map<uint64_t, NodeId> by_guid_;
};

}  // namespace

bool looks_like_ports_report(std::string_view text) {
  std::string_view s = scan::first_significant_line(text);
  std::string_view type = next_token(s);
  next_token(s);
  next_token(s);
  return node_type(type) && next_token(s).starts_with("0x");
}

Fabric parse_ibnetdiscover_ports(std::string_view text, const std::string& origin, const LoadOptions& options) {
  return PortsParser(text, origin, options).run();
}

}  // namespace ibburn::topo
