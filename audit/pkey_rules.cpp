#include "audit/pkey_rules.h"

#include <algorithm>
#include <span>

#include <fmt/format.h>

namespace ibburn::audit {

uint16_t partition_key(uint16_t entry) { return entry & static_cast<uint16_t>(~kFullMember); }

bool is_full(uint16_t entry) { return (entry & kFullMember) != 0; }

bool is_valid(uint16_t entry) { return partition_key(entry) != 0; }

bool can_talk(uint16_t a, uint16_t b) {
  return is_valid(a) && partition_key(a) == partition_key(b) && (is_full(a) || is_full(b));
}

std::string pkey_text(uint16_t entry) {
  if (!is_valid(entry)) return fmt::format("0x{:04x} (empty)", entry);
  return fmt::format("0x{:04x} ({}{})", entry, partition_key(entry) == kDefaultPkey ? "default, " : "",
                     is_full(entry) ? "full" : "limited");
}

namespace {

bool selects(const PartitionMember& m, const EndPort& p) {
  switch (m.kind) {
    case PartitionMember::Kind::All: return true;
    case PartitionMember::Kind::AllCas: return p.type == NodeType::Ca;
    case PartitionMember::Kind::AllSwitches: return p.type == NodeType::Switch;
    case PartitionMember::Kind::AllRouters: return p.type == NodeType::Router;
    case PartitionMember::Kind::Self: return p.sm_port;
    case PartitionMember::Kind::Guid: return m.guid == p.port_guid;
  }
  return false;
}

struct Held {
  bool full = false, limited = false;
};

void apply(Held& h, Membership m, bool allow_both) {
  const Held now{m != Membership::Limited, m == Membership::Limited || (m == Membership::Both && allow_both)};
  if (allow_both) {
    // opensm keeps full and limited members in two tables and adds to each apart.
    h.full |= now.full;
    h.limited |= now.limited;
  } else {
    h = now;  // one table at a time: adding a port takes it out of the other
  }
}

const PartitionMember kDefaultRule[] = {{PartitionMember::Kind::All, 0, Membership::Limited},
                                        {PartitionMember::Kind::Self, 0, Membership::Full}};

}  // namespace

std::vector<std::vector<uint16_t>> expected_pkeys(const Partitions& partitions, const std::vector<EndPort>& ports,
                                                  bool allow_both_pkeys) {
  std::vector<std::vector<uint16_t>> out(ports.size());
  auto place = [&](uint16_t key, std::span<const PartitionMember> first, std::span<const PartitionMember> then) {
    for (size_t i = 0; i < ports.size(); ++i) {
      Held h;
      for (auto rules : {first, then})
        for (const auto& m : rules)
          if (selects(m, ports[i])) apply(h, m.membership, allow_both_pkeys);
      if (h.full) out[i].push_back(key | kFullMember);
      if (h.limited) out[i].push_back(key);
    }
  };
  const Partition* def = find_partition(partitions, kDefaultPkey);
  place(kDefaultPkey, kDefaultRule,
        def ? std::span<const PartitionMember>(def->members) : std::span<const PartitionMember>());
  for (const auto& p : partitions.partitions)
    if (p.pkey != kDefaultPkey) place(p.pkey, {}, p.members);
  for (auto& entries : out) std::sort(entries.begin(), entries.end());
  return out;
}

}  // namespace ibburn::audit
