#include "slurm/hostlist.h"

#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

namespace ibburn::slurm {

std::string slurm_hostlist(const std::vector<std::string>& names) {
  // (prefix, digits in the suffix) -> the suffixes' values; 0 digits: names without a number.
  std::map<std::pair<std::string, size_t>, std::set<uint64_t>> groups;
  std::set<std::string> plain;
  for (const std::string& n : names) {
    const size_t digits_at = n.find_last_not_of("0123456789") + 1;  // npos + 1 = 0: all digits
    const size_t width = n.size() - digits_at;
    // 19 digits always fit in 64 bits; a longer "number" is kept as a plain name.
    if (width == 0 || width > 19 || digits_at == 0)
      plain.insert(n);
    else
      groups[{n.substr(0, digits_at), width}].insert(std::stoull(n.substr(digits_at)));
  }
  std::string out;
  auto add = [&out](const std::string& word) { out += (out.empty() ? "" : ",") + word; };
  for (const std::string& n : plain) add(n);
  for (const auto& [key, values] : groups) {
    const auto& [prefix, width] = key;
    const auto number = [w = width](uint64_t v) { return fmt::format("{:0{}}", v, w); };
    if (values.size() == 1) {
      add(prefix + number(*values.begin()));
      continue;
    }
    std::string ranges;
    for (auto it = values.begin(); it != values.end();) {
      const uint64_t first = *it;
      uint64_t last = first;
      for (++it; it != values.end() && *it == last + 1; ++it) last = *it;
      ranges += (ranges.empty() ? "" : ",") + number(first) + (last == first ? "" : "-" + number(last));
    }
    add(prefix + "[" + ranges + "]");
  }
  return out;
}

}  // namespace ibburn::slurm
