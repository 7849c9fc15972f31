#pragma once
// The P_Key membership rules (InfiniBand Architecture, 10.9), pure. A P_Key table entry is 16
// bits: bit 15 says full member, the low 15 bits are the partition's key. 0x7fff and 0xffff
// are the default partition, limited and full; an entry whose low 15 bits are 0 (0x0000,
// 0x8000) is an empty slot. Two ports talk when they share a key and one of them is full:
// two limited members cannot (a partition's clients see its servers, not each other).
//
// expected_pkeys applies partitions.conf as opensm does (opensm/osm_prtn.c, osm_pkey_mgr.c).
#include <cstdint>
#include <string>
#include <vector>

#include "audit/partitions.h"

namespace ibburn::audit {

constexpr uint16_t kFullMember = 0x8000;
constexpr uint16_t kDefaultPkey = 0x7fff;  // its low 15 bits: limited; with kFullMember, full

uint16_t partition_key(uint16_t entry);  // the low 15 bits
bool is_full(uint16_t entry);
bool is_valid(uint16_t entry);  // false for an empty slot
bool can_talk(uint16_t a, uint16_t b);
// "0x8001 (full)", "0x0001 (limited)", "0xffff (default, full)", "0x8000 (empty)".
std::string pkey_text(uint16_t entry);

enum class NodeType { Ca, Switch, Router };

// An end port as partitions.conf's members select it: a CA's port, a switch's port 0.
struct EndPort {
  uint64_t port_guid = 0;
  NodeType type = NodeType::Ca;
  bool sm_port = false;  // the master SM's own port: SELF
};

// Each port's P_Key entries (sorted) as opensm gives them. opensm makes the default partition
// before it reads the file, as if the file began with `Default=0x7fff : ALL=limited, SELF=full;`,
// then applies each partition's members in the file's order. Without allow_both_pkeys
// (opensm's option, off by default) a port holds one entry per partition: the last member
// line that names it decides, and `both` means full. With it, full and limited accumulate,
// and `both` gives the two entries.
std::vector<std::vector<uint16_t>> expected_pkeys(const Partitions& partitions, const std::vector<EndPort>& ports,
                                                  bool allow_both_pkeys = false);

}  // namespace ibburn::audit
