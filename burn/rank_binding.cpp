#include "burn/rank_binding.h"

#include <sstream>

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

}  // namespace ibburn::burn
