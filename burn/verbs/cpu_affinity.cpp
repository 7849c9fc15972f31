#include "burn/verbs/cpu_affinity.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "host/sysfs_reader.h"

namespace ibburn::burn::verbs {
namespace {

constexpr int kMaxCpu = CPU_SETSIZE - 1;

// Reads a decimal number at text[pos], advancing pos.
std::optional<int> number_at(const std::string& text, size_t& pos) {
  int value = -1;
  const auto [end, ec] = std::from_chars(text.data() + pos, text.data() + text.size(), value);
  if (ec != std::errc() || value < 0 || value > kMaxCpu) return std::nullopt;
  pos = static_cast<size_t>(end - text.data());
  return value;
}

}  // namespace

std::optional<std::vector<int>> parse_cpulist(const std::string& text) {
  std::string s;
  for (char c : text) {
    if (!std::isspace(static_cast<unsigned char>(c))) s += c;
  }
  if (s.empty()) return std::nullopt;
  std::vector<int> cpus;
  size_t pos = 0;
  while (pos < s.size()) {
    const auto first = number_at(s, pos);
    if (!first) return std::nullopt;
    int last = *first;
    if (pos < s.size() && s[pos] == '-') {
      const auto to = number_at(s, ++pos);
      if (!to || *to < *first) return std::nullopt;
      last = *to;
    }
    for (int c = *first; c <= last; ++c) cpus.push_back(c);
    if (pos < s.size() && s[pos++] != ',') return std::nullopt;
    if (pos == s.size() && s.back() == ',') return std::nullopt;
  }
  std::sort(cpus.begin(), cpus.end());
  cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
  return cpus;
}

std::vector<int> hca_local_cpus(const std::string& device, const std::string& sysfs_root) {
  const auto text = host::read_sysfs_text(sysfs_root + "/class/infiniband/" + device + "/device/local_cpulist");
  return text ? parse_cpulist(*text).value_or(std::vector<int>{}) : std::vector<int>{};
}

bool pin_current_thread(const std::vector<int>& cpus) {
  if (cpus.empty()) return false;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c : cpus) CPU_SET(c, &set);
  return ::pthread_setaffinity_np(::pthread_self(), sizeof set, &set) == 0;
}

}  // namespace ibburn::burn::verbs
