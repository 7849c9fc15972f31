#include "audit/audit_checks.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "audit/pkey_rules.h"
#include "common/guid.h"

namespace ibburn::audit {
namespace {

using json = nlohmann::json;
using K = FindingKind;

constexpr size_t kNamed = 3;     // of a group, the names its message gives; its ports hold them all
constexpr size_t kExamples = 5;  // of a group too large to list in details

std::string port_name(const std::string& node, int port) { return node + "[" + std::to_string(port) + "]"; }
std::string port_name(const AuditPort& p) { return port_name(p.node_name, p.port); }
PortRef ref(const AuditPort& p) { return {p.node_name, p.port}; }

// The words wiring/ gives tiers (WiringLayout::tier_word), which this module cannot include.
std::string tier_word(int t) {
  static const char* words[] = {"HCA", "leaf", "spine", "core"};
  return t >= 0 && t <= 3 ? words[t] : "tier " + std::to_string(t);
}

// The ports (or nodes) of one cause, and how its message names them.
struct Group {
  std::vector<PortRef> ports;
  std::vector<std::string> names;

  void add(std::string name, std::vector<PortRef> refs) {
    names.push_back(std::move(name));
    ports.insert(ports.end(), refs.begin(), refs.end());
  }
  bool many() const { return names.size() > 1; }
  // "a, b, c and 37 more"
  std::string list() const {
    std::string s;
    for (size_t i = 0; i < std::min(names.size(), kNamed); ++i) s += (i ? ", " : "") + names[i];
    if (names.size() > kNamed) s += fmt::format(" and {} more", names.size() - kNamed);
    return s;
  }
  // "host001 mlx5_0[1]", or "40 HCA ports (host001 mlx5_0[1], ... and 37 more)"
  std::string who(const std::string& noun) const {
    return many() ? fmt::format("{} {} ({})", names.size(), noun, list()) : names.front();
  }
  std::vector<std::string> examples() const {
    return {names.begin(), names.begin() + static_cast<ptrdiff_t>(std::min(names.size(), kExamples))};
  }
};

void add(std::vector<Finding>& out, K kind, Severity severity, std::string message, const Group& g,
         json details = json::object()) {
  out.push_back({kind, severity, std::move(message), g.ports, std::move(details)});
}

// --- P_Keys --------------------------------------------------------------------------------

// Entries of one key as bits.
constexpr uint8_t kLimitedBit = 1, kFullBit = 2;
uint8_t entry_bit(uint16_t entry) { return is_full(entry) ? kFullBit : kLimitedBit; }

// The entries of one key that `bits` name, full first, as text.
std::vector<std::string> entry_texts(uint16_t key, uint8_t bits) {
  std::vector<std::string> out;
  if (bits & kFullBit) out.push_back(pkey_text(key | kFullMember));
  if (bits & kLimitedBit) out.push_back(pkey_text(key));
  return out;
}

std::string partition_name(const Partitions& parts, uint16_t key) {
  const Partition* p = find_partition(parts, key);
  if (!p) return key == kDefaultPkey ? "Default" : "";
  return p->name.empty() ? fmt::format("0x{:04x}", key) : p->name;
}

// "of partition 'compute' (partitions.conf:3)"; empty for a key no partition has.
std::string of_partition(const Partitions& parts, uint16_t key) {
  if (const Partition* p = find_partition(parts, key))
    return fmt::format("of partition '{}' ({}:{})", partition_name(parts, key), parts.file, p->line);
  if (key == kDefaultPkey) return "of the default partition (opensm's own rule: " + parts.file + " has none)";
  return "";
}

struct PkeyCause {
  K kind;
  uint16_t key;
  uint8_t entries;  // the entries it is about
  auto operator<=>(const PkeyCause&) const = default;
};

// SELF is the port of the SM that applies partitions.conf: the master.
std::optional<uint64_t> master_port(const std::vector<AuditSm>& sms) {
  for (const auto& s : sms)
    if (s.state == 3) return s.port_guid;
  return std::nullopt;
}

void check_pkeys(const std::vector<AuditPort>& ports, const AuditPolicy& policy, std::optional<uint64_t> sm_port,
                 std::vector<Finding>& out) {
  const Partitions& parts = *policy.partitions;
  std::vector<const AuditPort*> hcas;
  std::vector<EndPort> ends;
  for (const auto& p : ports) {
    if (p.is_switch) continue;
    hcas.push_back(&p);
    ends.push_back({p.port_guid, NodeType::Ca, p.port_guid == sm_port});
  }
  const auto expected = expected_pkeys(parts, ends, policy.allow_both_pkeys);
  std::map<PkeyCause, Group> causes;
  for (size_t i = 0; i < hcas.size(); ++i) {
    std::map<uint16_t, std::pair<uint8_t, uint8_t>> by_key;  // key -> entries expected, held
    for (uint16_t e : expected[i]) by_key[partition_key(e)].first |= entry_bit(e);
    for (uint16_t e : hcas[i]->pkeys)
      if (is_valid(e)) by_key[partition_key(e)].second |= entry_bit(e);
    for (const auto& [key, entries] : by_key) {
      const auto [want, held] = entries;
      std::optional<PkeyCause> cause;
      if (!want)
        cause = {K::PkeyForeign, key, held};
      else if ((held & kFullBit) && !(want & kFullBit))
        cause = {K::PkeyFullNotLimited, key, kFullBit};
      else if (want & ~held)
        cause = {K::PkeyMissing, key, static_cast<uint8_t>(want & ~held)};
      if (cause) causes[*cause].add(port_name(*hcas[i]), {ref(*hcas[i])});
    }
  }
  for (const auto& [c, g] : causes) {
    const std::vector<std::string> entries = entry_texts(c.key, c.entries);
    const std::string who = g.who("HCA ports"), of = of_partition(parts, c.key),
                      e = entries.size() > 1 ? entries[0] + " and " + entries[1] : entries[0];
    const char* s = g.many() ? "" : "s";
    std::string message;
    if (c.kind == K::PkeyForeign && of.empty())
      message = fmt::format("{} hold{} P_Key {}, which no partition in {} declares", who, s, e, parts.file);
    else if (c.kind == K::PkeyForeign)
      message = fmt::format("{} hold{} P_Key {} {}, which does not list {}", who, s, e, of, g.many() ? "them" : "it");
    else if (c.kind == K::PkeyMissing)
      message = fmt::format("{} lack{} P_Key {} {}", who, s, e, of);
    else
      message = fmt::format(
          "{} hold{} P_Key {} {}, which makes {} limited: a limited member can be reached by full "
          "members only",
          who, s, e, of, g.many() ? "them" : "it");
    const std::string name = partition_name(parts, c.key);
    add(out, c.kind, Severity::Error, message, g,
        {{"pkey", fmt::format("0x{:04x}", c.key)},
         {"partition", name.empty() ? json() : json(name)},
         {"entries", entries},
         {"count", g.names.size()}});
  }
}

// Partitions need enforcing once any but the default one is declared or held.
bool partitions_in_use(const std::vector<AuditPort>& ports, const AuditPolicy& policy) {
  if (policy.partitions)
    for (const auto& p : policy.partitions->partitions)
      if (p.pkey != kDefaultPkey) return true;
  for (const auto& p : ports)
    if (!p.is_switch)
      for (uint16_t e : p.pkeys)
        if (is_valid(e) && partition_key(e) != kDefaultPkey) return true;
  return false;
}

void check_enforcement(const std::vector<AuditPort>& ports, std::vector<Finding>& out) {
  std::map<std::string, Group> off;  // by the directions not enforced
  for (const auto& p : ports) {
    if (!p.is_switch || p.peer_is_switch || p.peer_node_name.empty()) continue;
    if (p.partition_enforcement_inbound && p.partition_enforcement_outbound) continue;
    const char* dirs = !p.partition_enforcement_inbound && !p.partition_enforcement_outbound ? "inbound and outbound"
                       : !p.partition_enforcement_inbound                                    ? "inbound"
                                                                                             : "outbound";
    off[dirs].add(port_name(p) + " (to " + port_name(p.peer_node_name, p.peer_port) + ")", {ref(p)});
  }
  for (const auto& [dirs, g] : off)
    add(out, K::PkeyEnforcementOff, Severity::Warning,
        fmt::format("partition enforcement is off ({}) on {}: a host there can send into partitions it is not a "
                    "member of, and only the receiving HCA checks",
                    dirs, g.who("switch ports facing hosts")),
        g, {{"off", dirs}, {"count", g.names.size()}});
}

// --- M_Keys --------------------------------------------------------------------------------

void check_mkeys(const std::vector<AuditPort>& ports, std::vector<Finding>& out) {
  struct Tally {
    size_t total = 0, key_0 = 0, protect_0 = 0;
    Group open;
  };
  std::map<std::string, Tally> switches;  // by kind
  Tally hcas;
  for (const auto& p : ports) {
    if (!p.mkey && !p.mkey_protect_bits) continue;  // not read
    if (p.is_switch && p.port != 0) continue;       // a switch's M_Key is its port 0's (IBA 14.2.5.6)
    Tally& t = p.is_switch ? switches[p.switch_kind] : hcas;
    ++t.total;
    const bool key_0 = p.mkey == uint64_t{0}, protect_0 = p.mkey_protect_bits == 0;
    if (!key_0 && !protect_0) continue;
    t.key_0 += key_0;
    t.protect_0 += protect_0;
    if (p.is_switch)
      t.open.add(p.node_name, {{p.node_name, 0}});
    else
      t.open.add(port_name(p), {ref(p)});
  }
  auto tell = [&](const Tally& t, const std::string& noun, json details) {
    if (t.open.names.empty()) return;
    details.update({{"count", t.open.names.size()},
                    {"of", t.total},
                    {"m_key_0", t.key_0},
                    {"protect_bits_0", t.protect_0},
                    {"examples", t.open.examples()}});
    add(out, K::MkeyUnprotected, Severity::Error,
        fmt::format("M_Key 0 or unprotected (protect bits 0) on {} of {} {} ({}): any node can reconfigure them with "
                    "SMPs",
                    t.open.names.size(), t.total, noun, t.open.list()),
        t.open, std::move(details));
  };
  for (const auto& [kind, t] : switches)
    tell(t, kind.empty() ? "switches" : kind + " switches", {{"switch_kind", kind}});
  tell(hcas, "HCA ports", json::object());
}

// --- Subnet managers -----------------------------------------------------------------------

std::string sm_state(int s) {
  switch (s) {
    case 0: return "not active";
    case 1: return "discovering";
    case 2: return "standby";
    case 3: return "master";
  }
  return "state " + std::to_string(s);
}

std::string host_of(const std::string& node_name) { return node_name.substr(0, node_name.find_first_of(" \t")); }

// Hosts compare by their short names: SMInfo's node has no domain, the site's list may.
std::string_view short_name(std::string_view host) { return host.substr(0, host.find('.')); }

std::string sm_text(const AuditSm& s) {
  return fmt::format("{} ({}, priority {}, {})", s.node_name, Guid{s.port_guid}.text(), s.priority, sm_state(s.state));
}

void check_sms(const std::vector<AuditSm>& sms, const AuditPolicy& policy, std::vector<Finding>& out) {
  if (sms.empty()) return;  // no SM at all is topo check's no_sm
  Group all, masters, zero_key;
  json list = json::array();
  for (const auto& s : sms) {
    all.add(sm_text(s), {{s.node_name, 0}});
    list.push_back({{"node", s.node_name},
                    {"host", host_of(s.node_name)},
                    {"guid", Guid{s.port_guid}.text()},
                    {"priority", s.priority},
                    {"state", sm_state(s.state)}});
    if (s.state == 3) masters.add(sm_text(s), {{s.node_name, 0}});
    // opensm's default key, readable by anyone: 0 is what SMInfo gives an asker without the key,
    // so it says nothing either way.
    if (s.sm_key == kOpensmDefaultSmKey) zero_key.add(sm_text(s), {{s.node_name, 0}});
  }
  std::string every;
  for (const auto& name : all.names) every += (every.empty() ? "" : "; ") + name;
  add(out, K::SmList, Severity::Info,
      fmt::format("{} subnet manager{} answered: {}", sms.size(), sms.size() > 1 ? "s" : "", every), all,
      {{"sms", list}});
  if (masters.many())
    add(out, K::SmMasters, Severity::Error,
        fmt::format("{} master subnet managers answer at once ({}): each programs the fabric over the others' routes "
                    "and LIDs",
                    masters.names.size(), masters.list()),
        masters);
  if (!policy.sm_hosts.empty()) {
    std::string allowed;
    for (const auto& h : policy.sm_hosts) allowed += (allowed.empty() ? "" : ", ") + h;
    for (const auto& s : sms) {
      const std::string host = host_of(s.node_name);
      if (std::any_of(policy.sm_hosts.begin(), policy.sm_hosts.end(),
                      [&](const std::string& h) { return short_name(h) == short_name(host); }))
        continue;
      Group one;
      one.add(sm_text(s), {{s.node_name, 0}});
      add(out, K::SmOutsidePolicy, Severity::Error,
          fmt::format("a subnet manager answers on {}: {} is not one of the site's SM hosts ({})", sm_text(s), host,
                      allowed),
          one, {{"host", host}, {"guid", Guid{s.port_guid}.text()}, {"sm_hosts", policy.sm_hosts}});
    }
  }
  for (const auto& m : sms) {
    if (m.state != 3) continue;
    Group equal;
    for (const auto& s : sms)
      if (s.state == 2 && s.priority == m.priority) equal.add(sm_text(s), {{s.node_name, 0}});
    if (equal.names.empty()) continue;
    add(out, K::SmEqualPriority, Severity::Warning,
        fmt::format("{} {} the priority of the master {}: they fight over mastership when the master restarts",
                    equal.many() ? equal.who("standby SMs") : "the standby SM " + equal.names.front(),
                    equal.many() ? "have" : "has", sm_text(m)),
        equal, {{"priority", m.priority}, {"master", Guid{m.port_guid}.text()}});
  }
  if (!zero_key.names.empty())
    add(out, K::SmDefaultKey, Severity::Warning,
        fmt::format("SM_Key left at opensm's default (0x1) on {}, and given to any asker: a node posing as a subnet "
                    "manager knows it and can negotiate mastership",
                    zero_key.who("subnet managers")),
        zero_key);
}

// --- MTUs and VLs --------------------------------------------------------------------------

struct MtuCause {
  bool below_site;  // else below what both ends support
  int low_tier, high_tier, active, limit;
  auto operator<=>(const MtuCause&) const = default;
};

void check_mtus(const std::vector<AuditPort>& ports, const AuditPolicy& policy, std::vector<Finding>& out) {
  std::map<std::pair<std::string, int>, size_t> at;
  for (size_t i = 0; i < ports.size(); ++i) at[{ports[i].node_name, ports[i].port}] = i;
  std::map<MtuCause, Group> causes;
  for (size_t i = 0; i < ports.size(); ++i) {
    const AuditPort* a = &ports[i];
    const AuditPort* b = nullptr;
    if (auto it = at.find({a->peer_node_name, a->peer_port}); !a->peer_node_name.empty() && it != at.end()) {
      if (it->second < i) continue;  // told from its other end
      b = &ports[it->second];
      if (b->tier < a->tier) std::swap(a, b);
    }
    int active = 0;  // a link runs at the lower of its ends' MTUs
    for (const AuditPort* e : {a, b})
      if (e && e->mtu_active > 0) active = active ? std::min(active, e->mtu_active) : e->mtu_active;
    if (!active) continue;
    const int high = b ? b->tier : a->tier;
    std::optional<MtuCause> cause;
    if (policy.mtu && active < *policy.mtu)
      cause = {true, a->tier, high, active, *policy.mtu};
    else if (b && active < std::min(a->mtu_cap, b->mtu_cap))
      cause = {false, a->tier, high, active, std::min(a->mtu_cap, b->mtu_cap)};
    if (!cause) continue;
    if (b)
      causes[*cause].add(port_name(*a) + " - " + port_name(*b), {ref(*a), ref(*b)});
    else
      causes[*cause].add(port_name(*a), {ref(*a)});
  }
  for (const auto& [c, g] : causes) {
    const std::string who = g.who(tier_word(c.low_tier) + "-" + tier_word(c.high_tier) + " links");
    const char* s = g.many() ? "" : "s";
    add(out, K::MtuLow, c.below_site ? Severity::Error : Severity::Warning,
        c.below_site ? fmt::format("{} run{} MTU {}, below the site's {}", who, s, c.active, c.limit)
                     : fmt::format("{} run{} MTU {} where both ends support {}", who, s, c.active, c.limit),
        g,
        {{"mtu_active", c.active},
         {c.below_site ? "site_mtu" : "supported", c.limit},
         {"count", g.names.size()},
         {"links", g.names}});
  }
}

void check_vls(const std::vector<AuditPort>& ports, std::vector<Finding>& out) {
  std::map<int, std::map<int, std::vector<const AuditPort*>>> by_tier;  // tier -> VLs -> ports
  for (const auto& p : ports)
    if (p.vls_operational > 0) by_tier[p.tier][p.vls_operational].push_back(&p);
  for (const auto& [tier, by_vls] : by_tier) {
    if (by_vls.size() < 2) continue;
    const int common = std::max_element(by_vls.begin(), by_vls.end(), [](const auto& x, const auto& y) {
                         return x.second.size() < y.second.size();
                       })->first;
    Group odd;
    json counts = json::array(), odd_ports = json::array();
    std::string spread = fmt::format("{} on {}", by_vls.at(common).size(), common);
    for (const auto& [vls, list] : by_vls) {
      counts.push_back({{"vls", vls}, {"count", list.size()}});
      if (vls == common) continue;
      spread += fmt::format(", {} on {}", list.size(), vls);
      for (const AuditPort* p : list) {
        odd.add(port_name(*p), {ref(*p)});
        odd_ports.push_back({{"port", port_name(*p)}, {"vls", vls}, {"vl_cap", p->vl_cap}});
      }
    }
    add(out, K::VlsMixed, Severity::Warning,
        fmt::format("{} ports run different numbers of operational VLs ({}); off the most common {}: {}",
                    tier_word(tier), spread, common, odd.list()),
        odd, {{"tier", tier}, {"common", common}, {"vls", counts}, {"ports", odd_ports}});
  }
}

}  // namespace

std::vector<Finding> audit(const std::vector<AuditPort>& ports, const std::vector<AuditSm>& sms,
                           const AuditPolicy& policy) {
  std::vector<Finding> out;
  if (policy.partitions) check_pkeys(ports, policy, master_port(sms), out);
  if (partitions_in_use(ports, policy)) check_enforcement(ports, out);
  if (policy.require_mkey) check_mkeys(ports, out);
  check_sms(sms, policy, out);
  check_mtus(ports, policy, out);
  check_vls(ports, out);
  return out;
}

}  // namespace ibburn::audit
