#include "topo/ibnetdiscover_text.h"

#include <algorithm>
#include <optional>
#include <unordered_map>
#include <vector>

#include "common/error.h"
#include "topo/fabric_io.h"
#include "topo/ibnetdiscover_ports.h"
#include "topo/link_ledger.h"
#include "topo/text_scan.h"

namespace ibburn::topo {
namespace {

using scan::next_token;
using scan::quote;
using scan::skip_space;

constexpr auto npos = std::string_view::npos;

// A node id: ibnetdiscover's "S-/H-/R-<guid>" (kept as a number: hashing 70k of them as
// strings dominated large loads) or any other string (ibsim netfiles).
struct NodeRef {
  int kind = -1;  // 0, 1, 2 for S-, H-, R-; -1 for another string
  uint64_t guid = 0;
  std::string_view text;
};

NodeType type_of_kind(int kind) { return kind == 0 ? NodeType::Switch : kind == 1 ? NodeType::CA : NodeType::Router; }
int kind_of_type(NodeType type) { return type == NodeType::Switch ? 0 : type == NodeType::CA ? 1 : 2; }

// A port line names its peer by node id; the peer's record may come later in the file, so
// links are resolved once every record is read.
struct PendingLink {
  PortEnd local;
  NodeRef remote;
  int remote_port = 0;
  std::optional<uint64_t> remote_port_guid;
  uint16_t remote_lid = 0;  // 0 = not given (LID 0 is never assigned)
  std::string_view remote_desc;
  int line = 0;
};

// What the `# ...` comment of a port line says.
struct PortComment {
  std::optional<uint16_t> lid;  // the local port's own LID ("lid L lmc M" before the quote)
  std::optional<uint8_t> lmc;
  std::string_view remote_desc;
  uint16_t remote_lid = 0;
  std::optional<LinkRate> rate;  // the local port's active width and speed
};

class PlainParser : scan::TextLoader {
 public:
  PlainParser(std::string_view text, const std::string& origin, const LoadOptions& options)
      : TextLoader(text, origin, options, [this](PortEnd e) { return port_label(e); }) {}

  Fabric run() {
    // Records are rarely shorter than 250 bytes; reserving avoids rehashing large dumps
    // (capped: a huge file that is not a dump must not reserve gigabytes).
    size_t estimate = std::min<size_t>(text_.size() / 250 + 16, 1 << 20);
    fabric_.reserve(estimate);
    for (auto& m : by_guid_id_) m.reserve(estimate);
    pending_.reserve(estimate * 2);
    scan::LineReader reader(text_);
    std::string_view raw;
    while (reader.next(raw)) {
      line_ = reader.number();
      std::string_view s = skip_space(raw);
      if (scan::trim(s).empty()) {
        current_ = kNoNode;  // a blank line ends a record
      } else if (s.front() == '#') {
        continue;
      } else if (scan::is_tool_noise(s)) {
        noise_.add(line_, s);
      } else if (s.front() == '[') {
        port_line(s);
      } else if (!record_header(s) && !key_value(s) && !grouping_line(s)) {
        fail(line_, "unrecognised line " + quote(s) +
                        " (expected a node record, a [port] line, a key=value line or a # comment)");
      }
    }
    if (fabric_.size() == 0) fail(0, "no node records (Switch/Ca/Rt lines) found: this is not ibnetdiscover output");
    resolve_links();
    assign_ibsim_port_guids();
    return finish();
  }

 private:
  std::string port_label(PortEnd e) const {
    return "\"" + std::string(ids_[e.node]) + "\"[" + std::to_string(e.port) + "]";
  }

  // `vendid=0x2c9`, `switchguid=0x...(portguid)`, `caguid=0x...`; anything after the value
  // (ibnetdiscover -g appends `# Chassis N`) is ignored.
  bool key_value(std::string_view s) {
    size_t eq = s.find('=');
    if (eq == npos) return false;
    std::string_view key = s.substr(0, eq);
    std::string_view rest = s.substr(eq + 1);
    std::string_view value = rest.substr(0, std::min(rest.find_first_of(" \t#"), rest.size()));
    std::string_view port_guid;
    bool is_guid_line = key == "switchguid" || key == "caguid" || key == "hcaguids" || key == "rtguid";
    if (is_guid_line) {
      if (size_t paren = value.find('('); paren != npos) {
        size_t close = value.find(')', paren);
        if (close == npos) fail(line_, "unclosed '(' in " + quote(s));
        port_guid = value.substr(paren + 1, close - paren - 1);
        value = value.substr(0, paren);
      }
    } else if (key != "vendid" && key != "devid" && key != "sysimgguid") {
      return false;
    }
    auto v = scan::parse_hex64(value);
    if (!v)
      fail(line_, key == "vendid" || key == "devid"
                      ? std::string(key) + " value " + quote(value) + " is not a hexadecimal number"
                      : scan::bad_guid_reason(key, value));
    if (key == "vendid") {
      if (*v > 0xffffff) fail(line_, "vendid " + quote(value) + " is wider than 24 bits");
      vendid_ = static_cast<uint32_t>(*v);
    } else if (key == "devid") {
      if (*v > 0xffffffff) fail(line_, "devid " + quote(value) + " is wider than 32 bits");
      devid_ = static_cast<uint32_t>(*v);
    } else if (key == "sysimgguid") {
      sysimg_ = *v;
    } else {
      guid_type_ = key == "switchguid" ? NodeType::Switch : key == "rtguid" ? NodeType::Router : NodeType::CA;
      guid_key_ = key;
      guid_ = *v;
      guid_line_ = line_;
      port_guid_.reset();
      if (!port_guid.empty()) {
        auto pg = scan::parse_hex64(port_guid);
        if (!pg) fail(line_, scan::bad_guid_reason("switch port GUID", port_guid));
        port_guid_ = *pg;
      }
    }
    return true;
  }

  // ibnetdiscover -g prints chassis headings that are not comments.
  static bool grouping_line(std::string_view s) {
    return s.starts_with("Chassis ") || s.starts_with("Non-Chassis Nodes") || s.starts_with("Hostname:");
  }

  // `Switch\t36 "S-<guid>"\t\t# "desc" enhanced port 0 lid 128 lmc 0`, `Ca\t2 "H-<guid>" # "desc"`.
  bool record_header(std::string_view s) {
    NodeType type;
    size_t kw;
    if (s.starts_with("Switch"))
      type = NodeType::Switch, kw = 6;
    else if (s.starts_with("Hca"))
      type = NodeType::CA, kw = 3;  // ibsim's spelling
    else if (s.starts_with("Ca"))
      type = NodeType::CA, kw = 2;
    else if (s.starts_with("Rtr"))
      type = NodeType::Router, kw = 3;
    else if (s.starts_with("Rt"))
      type = NodeType::Router, kw = 2;
    else
      return false;
    std::string_view rest = s.substr(kw);
    if (rest.empty() || !scan::is_space(rest.front())) return false;
    current_ = kNoNode;

    std::string_view count_tok = next_token(rest);
    auto nports = scan::parse_uint(count_tok, 255);
    if (!nports || *nports == 0) fail(line_, "port count " + quote(count_tok) + " is not a number from 1 to 255");
    rest = skip_space(rest);
    if (rest.empty() || rest.front() != '"') fail(line_, "expected the node id in quotes after the port count");
    size_t q = rest.find('"', 1);
    if (q == npos) fail(line_, "unclosed quote in the node id");
    std::string_view id = rest.substr(1, q - 1);
    rest = skip_space(rest.substr(q + 1));

    // ibsim names a node without a quoted description by its id (netfiles often have none).
    std::string_view desc = id;
    std::optional<uint32_t> lid, lmc;
    bool base_port0 = false;
    if (!rest.empty() && rest.front() == '#') {
      std::string_view c = rest.substr(1);
      size_t q1 = c.find('"'), q2 = c.rfind('"');
      if (q1 != npos && q2 == q1) fail(line_, "unclosed quote in the node description");
      std::string_view tail = c;
      if (q1 != npos) {
        desc = c.substr(q1 + 1, q2 - q1 - 1);
        tail = c.substr(q2 + 1);
      }
      base_port0 = skip_space(tail).starts_with("base port 0");
      parse_lid_lmc(tail, lid, lmc);
    } else if (!rest.empty()) {
      fail(line_, "unexpected " + quote(rest) + " after the node id");
    }

    NodeRef ref = node_ref(id, "node id");
    uint64_t guid = node_guid(type, ref);
    if (std::optional<NodeId> first = find(ref))
      fail(line_, "node \"" + std::string(id) + "\" has a second record (the first is at line " +
                      std::to_string(record_line_[*first]) + ")");
    NodeId nid = fabric_.add_node(type, guid, std::string(desc), static_cast<int>(*nports));
    if (ref.kind >= 0)
      by_guid_id_[ref.kind].emplace(ref.guid, nid);
    else
      by_id_.emplace(id, nid);
    Node& node = fabric_.node(nid);
    node.sysimg_guid = sysimg_.value_or(0);
    node.vendor_id = vendid_.value_or(0);
    node.device_id = devid_.value_or(0);
    if (type == NodeType::Switch) {
      node.base_port0 = base_port0;
      // Every port of a switch answers with the switch's port GUID and its port-0 LID.
      uint64_t pg = port_guid_.value_or(guid);
      for (Port& p : node.ports) {
        p.guid = pg;
        p.lid = static_cast<uint16_t>(lid.value_or(0));
      }
      node.ports[0].lmc = static_cast<uint8_t>(lmc.value_or(0));
    }
    advance_guid(node);
    ids_.push_back(id);
    record_line_.push_back(line_);
    listed_line_.emplace_back(node.ports.size(), 0);
    vendid_.reset();
    devid_.reset();
    sysimg_.reset();
    guid_.reset();
    port_guid_.reset();
    current_ = nid;
    return true;
  }

  NodeRef node_ref(std::string_view id, const char* what) {
    NodeRef ref;
    ref.text = id;
    if (id.size() > 2 && id[1] == '-' && (id[0] == 'S' || id[0] == 'H' || id[0] == 'R')) {
      auto g = scan::parse_hex64(id.substr(2));
      if (!g) fail(line_, scan::bad_guid_reason(what, id));
      ref.kind = id[0] == 'S' ? 0 : id[0] == 'H' ? 1 : 2;
      ref.guid = *g;
    }
    return ref;
  }

  // The GUID comes from an id of the form S-/H-/R-<hex> (ibnetdiscover) and/or from the
  // switchguid=/caguid=/rtguid= line before the record (ibsim netfiles); both must agree.
  uint64_t node_guid(NodeType type, const NodeRef& ref) {
    std::string id(ref.text);
    if (ref.kind >= 0 && type_of_kind(ref.kind) != type)
      fail(line_, "node id \"" + id + "\" names a " + to_string(type_of_kind(ref.kind)) + " but the record is a " +
                      to_string(type));
    if (guid_ && guid_type_ != type)
      fail(line_, "the " + std::string(guid_key_) + "= line at line " + std::to_string(guid_line_) +
                      " does not belong to a " + to_string(type) + " record");
    if (ref.kind >= 0 && guid_ && ref.guid != *guid_)
      fail(line_, "node id \"" + id + "\" disagrees with " + std::string(guid_key_) + "=0x" + scan::hex(*guid_) +
                      " at line " + std::to_string(guid_line_));
    if (ref.kind >= 0) return ref.guid;
    if (guid_) return *guid_;
    // ibsim's own: the next of its per-type counter, so that this file and ibsim running it
    // agree (ibsim starts its routers at 0, which is no GUID).
    const uint64_t next = next_guid_[kind_of_type(type)];
    if (next == 0)
      fail(line_, "node \"" + id + "\" has no GUID: add an rtguid= line before it (ibsim numbers no router)");
    return next;
  }

  // After a node: where ibsim's counter for its type goes on (sim_net.c, new_node): a switch
  // takes one GUID, a CA or router one for the node and one for each port.
  void advance_guid(const Node& node) {
    next_guid_[kind_of_type(node.type)] = node.guid + (node.is_switch() ? 1 : node.num_ports + 1);
  }

  // A CA or router whose record gave no port a GUID (an ibsim netfile): ibsim's port GUIDs,
  // the node's GUID plus the port number.
  void assign_ibsim_port_guids() {
    for (NodeId n = 0; n < fabric_.size(); ++n) {
      Node& node = fabric_.node(n);
      if (node.is_switch()) continue;
      bool any = false;
      for (const Port& p : node.ports) any |= p.guid != 0;
      if (any) continue;
      for (int i = 1; i <= node.num_ports; ++i) fabric_.port({n, i}).guid = node.guid + static_cast<uint64_t>(i);
    }
  }

  // "lid N" and "lmc N" pairs anywhere in `s`.
  void parse_lid_lmc(std::string_view s, std::optional<uint32_t>& lid, std::optional<uint32_t>& lmc) {
    for (std::string_view tok = next_token(s); !tok.empty(); tok = next_token(s)) {
      if (tok != "lid" && tok != "lmc") continue;
      std::string_view v = next_token(s);
      auto n = scan::parse_uint(v, tok == "lid" ? 0xffff : 7);
      if (!n) fail(line_, std::string(tok) + " " + quote(v) + " is out of range");
      (tok == "lid" ? lid : lmc) = n;
    }
  }

  // Skips ibnetdiscover -g's external port number: "[ext 3]" (newer) or "{3}" (older).
  void skip_ext_port(std::string_view& s) {
    if (s.starts_with("[ext ") || s.starts_with("{")) {
      size_t close = s.find(s.front() == '{' ? '}' : ']');
      if (close == npos) fail(line_, "unclosed external port number in " + quote(s));
      s.remove_prefix(close + 1);
    }
  }

  // "[12]" at the front of `s`; returns the number and removes it.
  int bracket_port(std::string_view& s, const char* what) {
    size_t close = s.find(']');
    std::string_view num = close == npos ? s : s.substr(1, close - 1);
    auto n = close == npos ? std::nullopt : scan::parse_uint(num, 255);
    if (!n)
      fail(line_, std::string(what) + " " + quote(close == npos ? s : s.substr(0, close + 1)) +
                      " is not a port number in brackets from 0 to 255");
    s.remove_prefix(close + 1);
    return static_cast<int>(*n);
  }

  // `[1](label)(portguid) "S-<guid>"[63](portguid) # comment`; which parts appear depends on
  // the variant and on the node types.
  void port_line(std::string_view s) {
    if (current_ == kNoNode) fail(line_, "port line outside a node record (no Switch/Ca line above it)");
    Node& node = fabric_.node(current_);
    int port = bracket_port(s, "local port");
    if (port == 0) fail(line_, "port 0 is the switch management port and cannot be linked");
    if (port > node.num_ports)
      fail(line_, "port " + std::to_string(port) + " is beyond the " + std::to_string(node.num_ports) +
                      " ports the record at line " + std::to_string(record_line_[current_]) + " declares");
    if (int first = listed_line_[current_][port])
      fail(line_, "port " + std::to_string(port) + " is listed twice in this record (also at line " +
                      std::to_string(first) + ")");
    listed_line_[current_][port] = line_;
    skip_ext_port(s);

    std::string_view groups[2];
    int ngroups = 0;
    while (!s.empty() && s.front() == '(') {
      size_t close = s.find(')');
      if (close == npos) fail(line_, "unclosed '(' after the port number");
      if (ngroups == 2) fail(line_, "more than two (...) groups after the port number");
      groups[ngroups++] = s.substr(1, close - 1);
      s.remove_prefix(close + 1);
    }
    Port& p = node.ports[port];
    // One group: a label on a switch (ibdiagnet2 `[1](1/1/1)`), the port GUID on a CA. Two
    // groups: label, then port GUID (ibdiagnet2 CAs `[1](B9D0F0/0/0/1)(guid)`).
    std::string_view guid_text;
    if (ngroups == 2) {
      p.label = std::string(groups[0]);
      guid_text = groups[1];
    } else if (ngroups == 1 && node.is_switch()) {
      p.label = std::string(groups[0]);
    } else if (ngroups == 1) {
      guid_text = groups[0];
    }
    if (ngroups == 2 || (ngroups == 1 && !node.is_switch())) {
      auto g = scan::parse_hex64(guid_text);
      if (!g) fail(line_, scan::bad_guid_reason("port GUID", guid_text));
      p.guid = *g;
    }

    PendingLink link;
    link.local = {current_, port};
    link.line = line_;
    s = skip_space(s);
    if (s.empty() || s.front() != '"') fail(line_, "expected the linked node's \"id\" after the port number");
    size_t q = s.find('"', 1);
    if (q == npos) fail(line_, "unclosed quote in the linked node's id");
    link.remote = node_ref(s.substr(1, q - 1), "linked node id");
    s.remove_prefix(q + 1);
    if (s.empty() || s.front() != '[') fail(line_, "expected [port] after the linked node's id");
    link.remote_port = bracket_port(s, "linked port");
    if (link.remote_port == 0) fail(line_, "a link cannot end at port 0");
    skip_ext_port(s);
    s = skip_space(s);
    if (!s.empty() && s.front() == '(') {
      size_t close = s.find(')');
      if (close == npos) fail(line_, "unclosed '(' after the linked port");
      std::string_view g = s.substr(1, close - 1);
      link.remote_port_guid = scan::parse_hex64(g);
      if (!link.remote_port_guid) fail(line_, scan::bad_guid_reason("linked port GUID", g));
      s = skip_space(s.substr(close + 1));
    }
    if (!s.empty() && s.front() != '#') fail(line_, "unexpected " + quote(s) + " after the linked port");
    if (!s.empty()) {
      PortComment c = port_comment(s.substr(1));
      if (c.lid) p.lid = *c.lid;
      if (c.lmc) p.lmc = *c.lmc;
      if (c.rate) p.active = *c.rate;
      link.remote_desc = c.remote_desc;
      link.remote_lid = c.remote_lid;
    }
    pending_.push_back(link);
  }

  // Switch ports: `"remote desc" lid RL 4xQDR`; CA ports: `lid L lmc M "remote desc" lid RL 4xQDR`;
  // 2009 dumps stop after the LID; `--full` appends `s=4 w=2 v=4`, Xsigo ports `slot N`.
  PortComment port_comment(std::string_view c) {
    PortComment out;
    size_t q1 = c.find('"'), q2 = c.rfind('"');
    std::string_view before, after = c;
    if (q1 != npos) {
      if (q2 == q1) fail(line_, "unclosed quote in the comment");
      before = c.substr(0, q1);
      out.remote_desc = c.substr(q1 + 1, q2 - q1 - 1);
      after = c.substr(q2 + 1);
    }
    std::optional<uint32_t> lid, lmc;
    parse_lid_lmc(before, lid, lmc);
    if (lid) out.lid = static_cast<uint16_t>(*lid);
    if (lmc) out.lmc = static_cast<uint8_t>(*lmc);
    std::string_view tok = next_token(after);
    if (tok.empty()) return out;
    if (tok != "lid") fail(line_, "expected \"lid N\" after the linked node's description, got " + quote(tok));
    std::string_view v = next_token(after);
    auto rlid = scan::parse_uint(v, 0xffff);
    if (!rlid) fail(line_, "lid " + quote(v) + " is out of range");
    out.remote_lid = static_cast<uint16_t>(*rlid);
    std::string_view rate = next_token(after);
    if (rate.empty()) return out;
    out.rate = scan::parse_compat_rate(rate);
    if (!out.rate) fail(line_, "expected a link rate such as 4xHDR after the LID, got " + quote(rate));
    return out;
  }

  std::optional<NodeId> find(const NodeRef& ref) const {
    if (ref.kind >= 0) {
      auto it = by_guid_id_[ref.kind].find(ref.guid);
      if (it != by_guid_id_[ref.kind].end()) return it->second;
    } else if (auto it = by_id_.find(ref.text); it != by_id_.end()) {
      return it->second;
    }
    return std::nullopt;
  }

  void resolve_links() {
    for (const PendingLink& l : pending_) {
      std::optional<NodeId> found = find(l.remote);
      if (!found) {
        std::string peer =
            "\"" + std::string(l.remote.text) + "\"" + (l.remote_desc.empty() ? "" : " (" + quote(l.remote_desc) + ")");
        if (!options_.allow_partial)
          fail(l.line, "node " + peer +
                           " is linked from here but has no record of its own: the dump is truncated or edited "
                           "(--allow-partial loads the rest)");
        Port& p = fabric_.port(l.local);
        p.phys = PhysState::LinkUp;
        p.peer_unreached = true;
        dangling_.add(std::move(peer), l.line);
        continue;
      }
      NodeId rid = *found;
      Node& remote = fabric_.node(rid);
      if (l.remote_port > remote.num_ports)
        fail(l.line, "port " + std::to_string(l.remote_port) + " of node \"" + std::string(l.remote.text) +
                         "\" does not exist: its record at line " + std::to_string(record_line_[rid]) + " declares " +
                         std::to_string(remote.num_ports) + " ports");
      PortEnd b{rid, l.remote_port};
      ledger_.link(fabric_, l.local, b, l.line);
      Port& rp = fabric_.port(b);
      // The peer's own record is authoritative; the reference only fills what it lacks.
      if (l.remote_port_guid && rp.guid == 0) rp.guid = *l.remote_port_guid;
      if (l.remote_lid != 0) {
        if (remote.is_switch() && remote.ports[0].lid == 0) {
          for (Port& p : remote.ports) p.lid = l.remote_lid;
        } else if (!remote.is_switch() && rp.lid == 0) {
          rp.lid = l.remote_lid;
        }
      }
      // libibnetdisc only follows ports whose physical state is LinkUp.
      fabric_.port(l.local).phys = PhysState::LinkUp;
      rp.phys = PhysState::LinkUp;
    }
  }

  NodeId current_ = kNoNode;
  // Header lines seen since the last record; each applies to the next record only.
  std::optional<uint32_t> vendid_, devid_;
  std::optional<uint64_t> sysimg_, guid_, port_guid_;
  NodeType guid_type_ = NodeType::Unknown;
  std::string_view guid_key_;
  int guid_line_ = 0;
  // Per node: its id in the file, the line of its record, and which line listed each port.
  std::unordered_map<uint64_t, NodeId> by_guid_id_[3];
  // ibsim's GUID counters by kind (switch, CA, router), as it starts them (sim_net.c).
  uint64_t next_guid_[3] = {0x200000, 0x100000, 0};
  std::unordered_map<std::string_view, NodeId> by_id_;
  std::vector<std::string_view> ids_;
  std::vector<int> record_line_;
  std::vector<std::vector<int>> listed_line_;
  std::vector<PendingLink> pending_;
};

// ---- writer ----

void append_hex(std::string& out, uint64_t v, bool pad16) { out += scan::hex(v, pad16); }

// Descriptions go between quotes on one line; line breaks would end the record.
void append_desc(std::string& out, const std::string& d) {
  out += '"';
  for (char c : d) out += (c == '\n' || c == '\r') ? ' ' : c;
  out += '"';
}

void append_node_id(std::string& out, const Node& n) {
  out += n.is_switch() ? "\"S-" : n.is_ca() ? "\"H-" : "\"R-";
  append_hex(out, n.guid, true);
  out += '"';
}

// ibnetdiscover's rate column; "??"/"???" stand for an unknown width/speed. Nothing when
// both are unknown (as in 2009 dumps).
void append_rate(std::string& out, LinkRate r) {
  if (r.width == Width::Unknown && r.speed == Speed::Unknown) return;
  out += ' ';
  out += r.width == Width::Unknown ? "??" : to_string(r.width);
  out += r.speed == Speed::Unknown ? "???" : to_string(r.speed);
}

uint16_t node_lid(const Node& n, const Port& p) { return n.is_switch() ? n.ports[0].lid : p.lid; }

void append_port_line(std::string& out, const Fabric& f, const Node& n, const Port& p) {
  const Node& rn = f.node(p.remote.node);
  const Port& rp = rn.ports[p.remote.port];
  out += '[';
  out += std::to_string(p.number);
  out += ']';
  if (!p.label.empty()) out += "(" + p.label + ")";
  if (!n.is_switch() && (p.guid != 0 || !p.label.empty())) {
    out += '(';
    append_hex(out, p.guid, false);
    out += ") ";
  }
  out += '\t';
  append_node_id(out, rn);
  out += '[' + std::to_string(rp.number) + ']';
  if (!rn.is_switch() && rp.guid != 0) {
    out += n.is_switch() ? "(" : " (";
    append_hex(out, rp.guid, false);
    out += ") ";
  }
  out += "\t\t# ";
  if (!n.is_switch()) out += "lid " + std::to_string(p.lid) + " lmc " + std::to_string(p.lmc) + " ";
  append_desc(out, rn.description);
  out += " lid " + std::to_string(node_lid(rn, rp));
  append_rate(out, p.active);
  out += '\n';
}

}  // namespace

Fabric parse_ibnetdiscover_text(std::string_view text, const std::string& origin, const LoadOptions& options) {
  if (looks_like_ports_report(text)) return parse_ibnetdiscover_ports(text, origin, options);
  return PlainParser(text, origin, options).run();
}

std::string to_ibnetdiscover_text(const Fabric& fabric) {
  // ibnetdiscover text names nodes by GUID, so it cannot hold two nodes with one GUID.
  for (const auto& group : fabric.duplicate_guids()) {
    std::string names;
    for (NodeId id : group) names += (names.empty() ? "" : ", ") + fabric.node(id).name;
    std::string guid;
    append_hex(guid, fabric.node(group.front()).guid, true);
    throw Error(kExitInput, "cannot write ibnetdiscover text: GUID 0x" + guid + " belongs to " +
                                std::to_string(group.size()) + " nodes (" + names +
                                "); save the fabric as .json instead");
  }
  std::string out;
  out.reserve(fabric.size() * 160);
  out += "#\n# Topology file: generated by ibburn\n#\n";
  for (const Node& n : fabric.nodes()) {
    if (n.type == NodeType::Unknown)
      throw Error(kExitInput, "cannot write node " + n.name + " as ibnetdiscover text: its type is unknown");
    out += "\nvendid=0x";
    append_hex(out, n.vendor_id, false);
    out += "\ndevid=0x";
    append_hex(out, n.device_id, false);
    out += '\n';
    if (n.sysimg_guid != 0) {
      out += "sysimgguid=0x";
      append_hex(out, n.sysimg_guid, false);
      out += '\n';
    }
    out += n.is_switch() ? "switchguid=0x" : n.is_ca() ? "caguid=0x" : "rtguid=0x";
    append_hex(out, n.guid, false);
    if (n.is_switch()) {
      out += '(';
      append_hex(out, n.ports[0].guid != 0 ? n.ports[0].guid : n.guid, false);
      out += ')';
    }
    out += '\n';
    out += n.is_switch() ? "Switch\t" : n.is_ca() ? "Ca\t" : "Rt\t";
    // Port lines must not exceed the declared count (ibsim and this parser reject them).
    out += std::to_string(std::max<size_t>(static_cast<size_t>(n.num_ports), n.ports.size() - 1)) + ' ';
    append_node_id(out, n);
    out += "\t\t# ";
    append_desc(out, n.description);
    if (n.is_switch())
      out += (n.base_port0 ? " base port 0 lid " : " enhanced port 0 lid ") + std::to_string(n.ports[0].lid) + " lmc " +
             std::to_string(n.ports[0].lmc);
    out += '\n';
    for (size_t p = 1; p < n.ports.size(); ++p)
      if (n.ports[p].linked()) append_port_line(out, fabric, n, n.ports[p]);
  }
  return out;
}

}  // namespace ibburn::topo
