#include "burn/rank_binding.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <tuple>

#include "common/error.h"

namespace ibburn::burn {

std::vector<RankMapEntry> parse_rank_map(const std::string& text, const std::string& file) {
  std::vector<RankMapEntry> out;
  std::istringstream in(text);
  std::string line;
  for (int no = 1; std::getline(in, line); ++no) {
    if (auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    RankMapEntry e;
    std::string local;
    if (!(words >> e.host)) continue;
    if (!(words >> local >> e.binding.endpoint))
      throw InputError(file, no, "expected HOST LOCAL_RANK ENDPOINT [gpu=N] [netns=NAME]");
    try {
      std::size_t used = 0;
      e.local_rank = std::stoi(local, &used);
      if (used != local.size() || e.local_rank < 0) throw std::invalid_argument(local);
    } catch (const std::exception&) {
      throw InputError(file, no, "local rank \"" + local + "\" is not a non-negative integer");
    }
    for (std::string opt; words >> opt;) {
      if (opt.rfind("gpu=", 0) == 0) {
        try {
          e.binding.gpu = std::stoi(opt.substr(4));
        } catch (const std::exception&) {
          throw InputError(file, no, "bad \"" + opt + "\"");
        }
      } else if (opt.rfind("netns=", 0) == 0 && opt.size() > 6) {
        e.binding.netns = opt.substr(6);
      } else {
        throw InputError(file, no, "unknown option \"" + opt + "\" (gpu=N, netns=NAME)");
      }
    }
    for (const auto& prev : out)
      if (prev.host == e.host && prev.local_rank == e.local_rank)
        throw InputError(file, no, "host " + e.host + " local rank " + local + " mapped twice");
    out.push_back(std::move(e));
  }
  return out;
}

namespace {
template <class T>
T pick(const std::vector<T>& list, int local_rank, const char* flag, T fallback) {
  if (list.empty()) return fallback;
  if (local_rank >= static_cast<int>(list.size()))
    throw Error(kExitInput, std::string(flag) + " lists " + std::to_string(list.size()) +
                                " entries but this host runs local rank " + std::to_string(local_rank));
  return list[local_rank];
}
}  // namespace

Binding select_binding(const std::vector<RankMapEntry>& map, const std::string& host, int local_rank,
                       const std::vector<std::string>& bind, const std::vector<std::string>& netns,
                       const std::vector<int>& gpus) {
  for (const auto& e : map)
    if (e.host == host && e.local_rank == local_rank) return e.binding;
  for (const auto& e : map)
    if (e.host == "*" && e.local_rank == local_rank) return e.binding;
  if (!map.empty())
    throw Error(kExitInput, "the rank map has no line for host " + host + " local rank " + std::to_string(local_rank));
  Binding b;
  b.endpoint = pick(bind, local_rank, "--bind", std::string());
  b.netns = pick(netns, local_rank, "--netns", std::string());
  b.gpu = pick(gpus, local_rank, "--gpu", -1);
  return b;
}

bool natural_less(const std::string& a, const std::string& b) {
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t ei = i, ej = j;
      while (ei < a.size() && digit(a[ei])) ++ei;
      while (ej < b.size() && digit(b[ej])) ++ej;
      // Compare the runs as numbers without overflow: leading zeros off, then length, then digits.
      const std::string x = a.substr(i, ei - i), y = b.substr(j, ej - j);
      const size_t zx = std::min(x.find_first_not_of('0'), x.size()), zy = std::min(y.find_first_not_of('0'), y.size());
      const std::string nx = x.substr(zx), ny = y.substr(zy);
      if (nx.size() != ny.size()) return nx.size() < ny.size();
      if (nx != ny) return nx < ny;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

namespace {
const char* link_layer(bool ethernet) { return ethernet ? "Ethernet" : "InfiniBand"; }
const std::string kUseMap = "; pass --map (HOST LOCAL_RANK DEVICE:PORT per line) or --bind";
}  // namespace

PortChoice default_port(std::vector<CandidatePort> ports,
                        const std::vector<std::pair<std::string, std::string>>& hca_by_gpu, int local_rank,
                        int local_ranks) {
  if (ports.empty()) throw EnvironmentError("no active RDMA port on this host");
  std::sort(ports.begin(), ports.end(), [](const CandidatePort& x, const CandidatePort& y) {
    if (x.device != y.device) return natural_less(x.device, y.device);
    return x.port < y.port;
  });
  const std::string rank = "local rank " + std::to_string(local_rank);
  if (!hca_by_gpu.empty()) {
    if (local_rank >= static_cast<int>(hca_by_gpu.size())) {
      throw Error(kExitInput, rank + ": the host check pairs only " + std::to_string(hca_by_gpu.size()) +
                                  " GPUs with HCAs" + kUseMap);
    }
    // Named references, not a structured binding: clang (tidy's parser) cannot capture one.
    const std::string& gpu = hca_by_gpu[static_cast<size_t>(local_rank)].first;
    const std::string& hca = hca_by_gpu[static_cast<size_t>(local_rank)].second;
    const auto it = std::find_if(ports.begin(), ports.end(), [&](const CandidatePort& p) { return p.device == hca; });
    if (it == ports.end()) {
      throw Error(kExitInput, rank + ": " + hca + ", paired with GPU " + gpu + ", has no active port" + kUseMap);
    }
    return {it->device, it->port, "paired with GPU " + std::to_string(local_rank) + " (" + gpu + ") by the host check"};
  }
  const auto ethernet =
      static_cast<size_t>(std::count_if(ports.begin(), ports.end(), [](auto& p) { return p.ethernet; }));
  const size_t infiniband = ports.size() - ethernet;
  if (ethernet == infiniband) {
    throw Error(kExitInput, rank + ": as many InfiniBand as Ethernet ports (" + std::to_string(ethernet) +
                                " each) and no GPU-HCA pairing" + kUseMap);
  }
  const bool majority = ethernet > infiniband;
  std::erase_if(ports, [&](const CandidatePort& p) { return p.ethernet != majority; });
  std::string names;
  for (const auto& p : ports) names += (names.empty() ? "" : ", ") + p.device + ":" + std::to_string(p.port);
  if (static_cast<int>(ports.size()) > local_ranks) {
    throw Error(kExitInput, rank + ": " + std::to_string(ports.size()) + " active " + link_layer(majority) +
                                " ports (" + names + ") for " + std::to_string(local_ranks) +
                                " local ranks and no GPU-HCA pairing: which to burn is ambiguous" + kUseMap);
  }
  const size_t i = static_cast<size_t>(local_rank) % ports.size();
  std::string why = "port " + std::to_string(i + 1) + " of " + std::to_string(ports.size()) + " active " +
                    link_layer(majority) + " ports by name";
  if (const size_t other = majority ? infiniband : ethernet; other > 0)
    why += " (" + std::to_string(other) + " " + link_layer(!majority) + " left out)";
  if (static_cast<int>(ports.size()) < local_ranks) why += ", shared: more local ranks than ports";
  return {ports[i].device, ports[i].port, why};
}

}  // namespace ibburn::burn
