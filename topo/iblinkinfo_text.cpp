#include "topo/iblinkinfo_text.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <vector>

#include "common/error.h"
#include "common/guid.h"
#include "topo/link_ledger.h"
#include "topo/text_scan.h"

namespace ibburn::topo {
namespace {

using scan::next_token;
using scan::quote;
using scan::skip_space;
using scan::trim;

constexpr auto npos = std::string_view::npos;

// libibmad's words for PortState and PortPhysicalState ("NoChange" stays Unknown).
std::optional<PortState> port_state(std::string_view s) {
  static constexpr std::pair<std::string_view, PortState> kNames[] = {{"NoChange", PortState::Unknown},
                                                                      {"Down", PortState::Down},
                                                                      {"Initialize", PortState::Init},
                                                                      {"Armed", PortState::Armed},
                                                                      {"Active", PortState::Active}};
  for (auto& [name, state] : kNames)
    if (s == name) return state;
  return std::nullopt;
}

std::optional<PhysState> phys_state(std::string_view s) {
  static constexpr std::pair<std::string_view, PhysState> kNames[] = {
      {"NoChange", PhysState::Unknown},
      {"Sleep", PhysState::Sleep},
      {"Polling", PhysState::Polling},
      {"Disabled", PhysState::Disabled},
      {"PortConfigurationTraining", PhysState::Training},
      {"LinkUp", PhysState::LinkUp},
      {"LinkErrorRecovery", PhysState::LinkErrorRecovery},
      {"PhyTest", PhysState::PhyTest}};
  for (auto& [name, state] : kNames)
    if (s == name) return state;
  return std::nullopt;
}

// The lane rate as libibmad prints it; "undefined (N)" is a speed it does not know.
std::optional<Speed> lane_speed(std::string_view s) {
  static constexpr std::pair<std::string_view, Speed> kNames[] = {
      {"2.5 Gbps", Speed::SDR},     {"5.0 Gbps", Speed::DDR},
      {"10.0 Gbps", Speed::QDR},    {"10.0 Gbps (FDR10)", Speed::FDR10},
      {"14.0625 Gbps", Speed::FDR}, {"25.78125 Gbps", Speed::EDR},
      {"53.125 Gbps", Speed::HDR},  {"106.25 Gbps", Speed::NDR},
      {"212.5 Gbps", Speed::XDR}};
  for (auto& [name, speed] : kNames)
    if (s == name) return speed;
  if (s.starts_with("undefined")) return Speed::Unknown;
  return std::nullopt;
}

std::optional<Width> lane_width(std::string_view s) {
  if (s.starts_with("undefined")) return Width::Unknown;
  if (s.size() < 2 || s.back() != 'X') return std::nullopt;
  return scan::parse_compat_width(std::string(s.substr(0, s.size() - 1)) + "x");
}

struct Remote {
  enum class Kind { None, Unreached, Linked } kind = Kind::None;
  std::optional<uint64_t> guid;  // --line only
  uint16_t lid = 0;
  int port = 0;
  std::string_view desc;
};

struct PortLine {
  int line = 0;
  std::optional<uint64_t> guid;  // the port GUID (CA lines, every --line line)
  std::string_view desc;         // --line only
  uint16_t lid = 0;
  int port = 0;
  PortState state = PortState::Unknown;
  PhysState phys = PhysState::Unknown;
  LinkRate rate;
  Remote remote;
};

struct Record {
  NodeType type = NodeType::Unknown;
  std::optional<uint64_t> guid;  // a switch header's GUID
  std::string_view desc;
  int line = 0;
  std::vector<PortLine> ports;
};

class LinkinfoParser : scan::TextLoader {
 public:
  LinkinfoParser(std::string_view text, const std::string& origin, const LoadOptions& options)
      : TextLoader(text, origin, options, [this](PortEnd e) { return fabric_.port_name(e); }) {}

  Fabric run() {
    scan::LineReader reader(text_);
    std::string_view raw;
    while (reader.next(raw)) {
      line_ = reader.number();
      std::string_view s = trim(raw);
      if (s.empty() || s.front() == '#') continue;
      if (scan::is_tool_noise(s)) {
        noise_.add(line_, s);
      } else if (scan::is_elision(s)) {
        elision(s);
      } else if (!header(s)) {
        port_line(s);
      }
    }
    if (line_mode_) group_line_mode();
    if (records_.empty()) fail(0, "no iblinkinfo node or port lines found");
    build();
    if (elided_line_)
      warn(options_, origin_ + ": line " + std::to_string(elided_line_) +
                         ": '...' marks output left out: loaded what the file holds");
    return finish();
  }

 private:
  // An author's `...`: the output was cut here.
  void elision(std::string_view s) {
    if (!options_.allow_partial)
      fail(line_, quote(s) + " marks output left out: the dump is incomplete (--allow-partial loads the rest)");
    if (!elided_line_) elided_line_ = line_;
  }

  // `CA: desc:`, `Switch: 0x<guid> desc:`, `Router: desc:`.
  bool header(std::string_view s) {
    NodeType type;
    std::string_view rest;
    if (s.starts_with("CA: "))
      type = NodeType::CA, rest = s.substr(4);
    else if (s.starts_with("Switch: "))
      type = NodeType::Switch, rest = s.substr(8);
    else if (s.starts_with("Router: "))
      type = NodeType::Router, rest = s.substr(8);
    else
      return false;
    if (line_mode_ && *line_mode_) fail(line_, "a node header in --line output");
    line_mode_ = false;
    if (rest.empty() || rest.back() != ':') fail(line_, "a node header must end with ':'");
    rest.remove_suffix(1);
    Record r;
    r.type = type;
    r.line = line_;
    if (type == NodeType::Switch) {
      std::string_view g = next_token(rest);
      r.guid = g.starts_with("0x") ? scan::parse_hex64(g) : std::nullopt;
      if (!r.guid) fail(line_, scan::bad_guid_reason("switch GUID", g));
      rest = skip_space(rest);
    }
    r.desc = rest;
    records_.push_back(std::move(r));
    return true;
  }

  uint16_t lid_token(std::string_view& s) {
    std::string_view t = next_token(s);
    auto lid = scan::parse_uint(t, 0xffff);
    if (!lid) fail(line_, "LID " + quote(t) + " is not a number from 0 to 65535");
    return static_cast<uint16_t>(*lid);
  }

  // `17[  ]` or `17[ 3]` (external port number, ignored).
  int port_token(std::string_view& s, const char* what) {
    s = skip_space(s);
    size_t open = s.find('['), close = s.find(']');
    auto port = open == npos || close == npos || close < open ? std::nullopt : scan::parse_uint(s.substr(0, open), 255);
    if (!port || *port == 0)
      fail(line_, std::string(what) + " " + quote(s.substr(0, std::min(close, s.size()))) +
                      " is not a port number from 1 to 255 followed by [ext]");
    s.remove_prefix(close + 1);
    return static_cast<int>(*port);
  }

  uint64_t guid_token(std::string_view& s, const char* what) {
    std::string_view t = next_token(s);
    auto g = t.starts_with("0x") ? scan::parse_hex64(t) : std::nullopt;
    if (!g) fail(line_, scan::bad_guid_reason(what, t));
    return *g;
  }

  // `( 4X      25.78125 Gbps Active/  LinkUp)` without the parentheses; a down port has no
  // width and speed; `--switch-settings` appends `) (HOQ:.. VL_Stall:..`.
  void link_state(std::string_view c, PortLine& p) {
    if (size_t hoq = c.find(") (HOQ:"); hoq != npos) c = c.substr(0, hoq);
    size_t slash = c.rfind('/');
    if (slash == npos) fail(line_, "expected State/PhysState in " + quote(c));
    std::string_view phys = trim(c.substr(slash + 1));
    std::string_view left = trim(c.substr(0, slash));
    size_t cut = left.find_last_of(" \t");
    std::string_view state = cut == npos ? left : left.substr(cut + 1);
    std::string_view rate = cut == npos ? std::string_view() : trim(left.substr(0, cut));
    auto st = port_state(state);
    auto ph = phys_state(phys);
    if (!st || !ph) fail(line_, "unknown port state " + quote(std::string(state) + "/" + std::string(phys)));
    p.state = *st;
    p.phys = *ph;
    if (rate.empty()) return;
    std::string_view w = next_token(rate);
    auto width = lane_width(w);
    auto speed = lane_speed(trim(rate));
    if (!width || !speed) fail(line_, "expected a width and lane speed such as \"4X 25.78125 Gbps\", got " + quote(c));
    p.rate = {*width, *speed};
  }

  void port_line(std::string_view s) {
    PortLine p;
    p.line = line_;
    bool starts_with_guid = s.starts_with("0x");
    if (starts_with_guid) p.guid = guid_token(s, "port GUID");
    s = skip_space(s);
    bool this_line_mode = starts_with_guid && !s.empty() && s.front() == '"';
    if (!line_mode_) line_mode_ = this_line_mode;
    if (*line_mode_ != this_line_mode)
      fail(line_, *line_mode_ ? "expected a --line port line (0x<port guid> \"desc\" ...)"
                              : "unrecognised line " + quote(s) + " (expected a CA:/Switch: header or a port line)");
    if (this_line_mode) {
      size_t q = s.find('"', 1);
      if (q == npos) fail(line_, "unclosed quote in the node description");
      p.desc = skip_space(s.substr(1, q - 1));  // printed right-aligned in 30 columns
      s.remove_prefix(q + 1);
    } else if (records_.empty()) {
      fail(line_, "unrecognised line " + quote(s) + " (expected a CA:/Switch: header before port lines)");
    }
    p.lid = lid_token(s);
    p.port = port_token(s, "port");
    s = skip_space(s);
    size_t end = s.find(")==>");
    if (!s.starts_with("==(") || end == npos) fail(line_, "expected ==( ... )==> after the port, got " + quote(s));
    link_state(s.substr(3, end - 3), p);
    remote(skip_space(s.substr(end + 4)), p.remote);
    if (this_line_mode) {
      flat_.push_back(p);
      return;
    }
    Record& r = records_.back();
    if (r.type != NodeType::Switch && !p.guid) fail(line_, "a CA port line must start with the port GUID");
    r.ports.push_back(p);
  }

  // `     2   17[  ] "sw" ( Could be ...)` (--line: `0x<guid>` first), `[  ] "" ( )` for a
  // down port, `"Port not available"` for an unreached peer.
  void remote(std::string_view s, Remote& r) {
    if (s == "\"Port not available\"") {
      r.kind = Remote::Kind::Unreached;
      return;
    }
    if (s.starts_with("[")) return;  // down, no peer
    r.kind = Remote::Kind::Linked;
    if (*line_mode_) r.guid = guid_token(s, "peer port GUID");
    r.lid = lid_token(s);
    r.port = port_token(s, "peer port");
    s = skip_space(s);
    size_t close = s.rfind('"');
    if (!s.starts_with("\"") || close == 0) fail(line_, "expected the peer's \"description\", got " + quote(s));
    r.desc = s.substr(1, close - 1);
  }

  // --line output has no headers: a port GUID listed with several port numbers is a switch
  // (all its ports answer with one GUID); any other is one CA port, its own node (the
  // output cannot tell which ports share an adapter).
  void group_line_mode() {
    std::unordered_map<uint64_t, size_t> index;
    for (const PortLine& p : flat_) {
      auto [it, fresh] = index.emplace(*p.guid, records_.size());
      if (fresh) {
        Record r;
        r.type = NodeType::CA;
        r.guid = p.guid;
        r.desc = p.desc;
        r.line = p.line;
        records_.push_back(std::move(r));
      }
      Record& r = records_[it->second];
      if (!r.ports.empty() && r.ports.front().port != p.port) r.type = NodeType::Switch;
      r.ports.push_back(p);
    }
  }

  void build() {
    std::unordered_map<uint64_t, NodeId> by_guid;  // switch GUID, CA port GUID
    std::unordered_map<uint16_t, std::vector<NodeId>> by_lid;
    std::unordered_map<std::string_view, std::vector<NodeId>> by_desc;
    for (const Record& r : records_) {
      int nports = 0;
      for (const PortLine& p : r.ports) nports = std::max(nports, p.port);
      uint64_t guid = r.guid ? *r.guid : r.ports.empty() ? 0 : *r.ports.front().guid;
      NodeId id = fabric_.add_node(r.type, guid, std::string(r.desc), nports);
      Node& n = fabric_.node(id);
      if (r.ports.empty() && r.type != NodeType::Switch) fail(r.line, "a CA header without port lines");
      for (const PortLine& p : r.ports) {
        Port& port = n.ports[p.port];
        if (port.state != PortState::Unknown || port.phys != PhysState::Unknown)
          fail(p.line, "port " + std::to_string(p.port) + " of " + quote(r.desc) + " is listed twice");
        port.state = p.state;
        port.phys = p.phys;
        port.active = p.rate;
        port.peer_unreached = p.remote.kind == Remote::Kind::Unreached;
        if (r.type == NodeType::Switch) {
          for (Port& q : n.ports) q.guid = guid, q.lid = p.lid;
        } else {
          port.guid = *p.guid;
          port.lid = p.lid;
          claim(by_guid, *p.guid, id, p.line);
        }
        if (p.lid != 0) add_unique(by_lid[p.lid], id);
      }
      if (r.type == NodeType::Switch) claim(by_guid, guid, id, r.line);
      add_unique(by_desc[r.desc], id);
    }
    const bool partial_ok = options_.allow_partial || records_.size() == 1;
    NodeId id = 0;
    for (const Record& r : records_) {
      for (const PortLine& p : r.ports) {
        if (p.remote.kind != Remote::Kind::Linked) continue;
        std::optional<NodeId> peer = find_peer(p.remote, by_guid, by_lid, by_desc, p.line);
        if (!peer) {
          std::string name = quote(p.remote.desc) + " (LID " + std::to_string(p.remote.lid) + ")";
          if (!partial_ok)
            fail(p.line,
                 "the peer " + name + " port " + std::to_string(p.remote.port) +
                     " has no lines of its own: the dump is truncated or edited (--allow-partial loads the rest)");
          fabric_.node(id).ports[p.port].peer_unreached = true;
          dangling_.add(std::move(name), p.line);
          continue;
        }
        Node& pn = fabric_.node(*peer);
        if (p.remote.port > pn.num_ports) {
          if (!partial_ok)
            fail(p.line, "port " + std::to_string(p.remote.port) + " of " + quote(pn.description) +
                             " is not listed in its own lines (they end at port " + std::to_string(pn.num_ports) +
                             "; --allow-partial loads a cut listing)");
          grow(pn, p.remote.port);
        }
        ledger_.link(fabric_, {id, p.port}, {*peer, p.remote.port}, p.line);
      }
      ++id;
    }
  }

  void claim(std::unordered_map<uint64_t, NodeId>& by_guid, uint64_t guid, NodeId id, int line) {
    auto [it, fresh] = by_guid.emplace(guid, id);
    if (!fresh && it->second != id)
      fail(line, "GUID " + Guid{guid}.text() + " is also " + quote(fabric_.node(it->second).description));
  }

  // A node whose listing was cut before `port`: the ports up to it exist.
  static void grow(Node& n, int port) {
    const Port proto = n.is_switch() ? n.ports[0] : Port{};
    for (int i = static_cast<int>(n.ports.size()); i <= port; ++i) {
      Port q;
      q.number = i;
      q.guid = proto.guid;
      q.lid = proto.lid;
      n.ports.push_back(q);
    }
    n.num_ports = port;
  }

  static void add_unique(std::vector<NodeId>& v, NodeId id) {
    if (v.empty() || v.back() != id) v.push_back(id);
  }

  // --line names the peer's port GUID; the default layout only its LID and description:
  // the LID decides when one node has it, else the description.
  std::optional<NodeId> find_peer(const Remote& r, const std::unordered_map<uint64_t, NodeId>& by_guid,
                                  const std::unordered_map<uint16_t, std::vector<NodeId>>& by_lid,
                                  const std::unordered_map<std::string_view, std::vector<NodeId>>& by_desc,
                                  int line) const {
    if (r.guid) {
      auto it = by_guid.find(*r.guid);
      return it == by_guid.end() ? std::nullopt : std::optional<NodeId>(it->second);
    }
    if (r.lid != 0)
      if (auto it = by_lid.find(r.lid); it != by_lid.end() && it->second.size() == 1) return it->second.front();
    auto it = by_desc.find(r.desc);
    if (it == by_desc.end()) return std::nullopt;
    if (it->second.size() > 1)
      fail(line, "the peer " + quote(r.desc) + " (LID " + std::to_string(r.lid) +
                     ") matches several nodes: without an SM's LIDs iblinkinfo --line output is needed");
    return it->second.front();
  }

  int elided_line_ = 0;
  std::optional<bool> line_mode_;
  std::vector<Record> records_;
  std::vector<PortLine> flat_;  // --line output, grouped into records at the end
};

}  // namespace

bool looks_like_iblinkinfo(std::string_view text) {
  std::string_view s = scan::first_significant_line(text);
  return s.starts_with("CA: ") || s.starts_with("Switch: 0x") || s.starts_with("Router: ") ||
         (s.find("==(") != npos && s.find(")==>") != npos);
}

Fabric parse_iblinkinfo_text(std::string_view text, const std::string& origin, const LoadOptions& options) {
  return LinkinfoParser(text, origin, options).run();
}

}  // namespace ibburn::topo
