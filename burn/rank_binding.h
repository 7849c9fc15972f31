#pragma once
// Which endpoint each rank drives. From (first match wins): a mapping file line for this host
// and local rank, then the --bind list indexed by local rank, then the transport's default
// for the local rank (tcp: loopback; verbs: the local_rank-th active port). Pure.
//
// Mapping file: one rank per line, `#` comments:
//   HOST LOCAL_RANK ENDPOINT [gpu=N] [netns=NAME]
// HOST is a hostname or `*`; ENDPOINT what --bind takes (an address, interface, or dev:port).
#include <string>
#include <vector>

namespace ibburn::burn {

struct Binding {
  std::string endpoint;  // "" = transport default
  int gpu = -1;
  std::string netns;  // network namespace to enter before opening sockets ("" = none)
};

struct RankMapEntry {
  std::string host;  // "*" = any
  int local_rank = 0;
  Binding binding;
};

// Throws InputError(file, line, reason).
std::vector<RankMapEntry> parse_rank_map(const std::string& text, const std::string& file);

// bind/netns/gpus: comma-separated lists from the flags, indexed by local rank (may be empty).
// Throws Error(kExitInput) when a list is given but has no entry for this local rank.
Binding select_binding(const std::vector<RankMapEntry>& map, const std::string& host, int local_rank,
                       const std::vector<std::string>& bind, const std::vector<std::string>& netns,
                       const std::vector<int>& gpus);

}  // namespace ibburn::burn
