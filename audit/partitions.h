#pragma once
// opensm's partitions.conf (man opensm, "PARTITION CONFIGURATION"), read as opensm reads it
// (linux-rdma/opensm, opensm/osm_prtn_config.c): the partitions a site declares and which
// ports are their members. Pure: the text in, the partitions out; what each port's P_Key table
// then holds is pkey_rules.h.
//
// Where opensm warns and carries on (an unknown flag, a membership it does not recognise and
// takes as limited, a P_Key it truncates to 16 bits, a second name for one P_Key), this parser
// refuses the line: the audit is there to find such mistakes, not to guess past them.
#include <cstdint>
#include <string>
#include <vector>

namespace ibburn::audit {

enum class Membership { Limited, Full, Both };  // both: a full and a limited entry (opensm's allow_both_pkeys)
const char* to_string(Membership m);            // "limited", "full", "both"

struct PartitionMember {
  enum class Kind { All, AllCas, AllSwitches, AllRouters, Self, Guid };
  Kind kind = Kind::All;
  uint64_t guid = 0;                            // kind Guid: the port's GUID
  Membership membership = Membership::Limited;  // as written, else its definition's defmember
};

struct Partition {
  std::string name;   // its first definition's name; "" when that has none
  uint16_t pkey = 0;  // 15 bits: the full-membership bit is each member's, not the partition's
  // Every definition's members, in the file's order: opensm applies them in turn, so a port
  // named twice ends with the later membership.
  std::vector<PartitionMember> members;
  int line = 0;  // its first definition's line
};

struct Partitions {
  std::vector<Partition> partitions;  // in the order of their first definitions
  std::string file;
};

// Throws InputError(file, line, reason) naming the line: a flag or member opensm does not
// know, a bad GUID, a P_Key that is not 16 bits or has no key in its low 15, one P_Key under
// two names, a definition without ':' or without its closing ';'.
Partitions parse_partitions(const std::string& text, const std::string& file);

// The partition of a P_Key (its low 15 bits), or null.
const Partition* find_partition(const Partitions& partitions, uint16_t pkey);

}  // namespace ibburn::audit
