#pragma once
// Which endpoint each rank drives. From (first match wins): a mapping file line for this host
// and local rank, then the --bind list indexed by local rank, then the transport's default
// for the local rank (tcp: loopback; verbs: default_port below). Pure.
//
// Mapping file: one rank per line, `#` comments:
//   HOST LOCAL_RANK ENDPOINT [gpu=N] [netns=NAME]
// HOST is a hostname or `*`; ENDPOINT what --bind takes (an address, interface, or dev:port).
#include <string>
#include <utility>
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

// An active RDMA port, as the default binding sees it.
struct CandidatePort {
  std::string device;
  int port = 1;
  bool ethernet = false;  // link layer: Ethernet (RoCE), else InfiniBand
};
struct PortChoice {
  std::string device;
  int port = 1;
  std::string why;  // for the rank's binding line
};
// The port local rank `local_rank` of `local_ranks` drives when neither --map nor --bind names
// one. With the host check's GPU-HCA pairing (`hca_by_gpu`: GPU PCI address and its HCA, in
// GPU address order) rank i takes the HCA of the i-th GPU. Without, the ports sorted by
// device name in natural order (mlx5_2 before mlx5_10), of the link layer most ports have;
// rank i takes the i-th, ranks sharing ports when there are more ranks than ports. Throws
// Error(kExitInput) suggesting --map when that is ambiguous (more ports than ranks, a tie
// between link layers, a paired HCA without an active port, more ranks than pairs), and
// EnvironmentError when there is no active port.
PortChoice default_port(std::vector<CandidatePort> ports,
                        const std::vector<std::pair<std::string, std::string>>& hca_by_gpu, int local_rank,
                        int local_ranks);

// Natural order of device names: digit runs compare as numbers ("mlx5_2" < "mlx5_10").
bool natural_less(const std::string& a, const std::string& b);

}  // namespace ibburn::burn
