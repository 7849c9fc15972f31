#include "audit/partitions.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "audit/pkey_rules.h"
#include "common/error.h"
#include "common/text.h"

namespace ibburn::audit {
namespace {

// A number as opensm reads one (strtoul, base 0): 0x hexadecimal, a leading 0 octal, else
// decimal; nullopt for anything else and for what does not fit 64 bits.
std::optional<uint64_t> parse_number(std::string_view s) {
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
    s.remove_prefix(1);
  }
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// opensm takes any abbreviation of a membership ("limi" is in its own examples).
std::optional<Membership> parse_membership(std::string_view s) {
  auto abbreviates = [&](std::string_view word) { return !s.empty() && word.substr(0, s.size()) == s; };
  if (abbreviates("full")) return Membership::Full;
  if (abbreviates("limited")) return Membership::Limited;
  if (abbreviates("both")) return Membership::Both;
  return std::nullopt;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (size_t at = 0;;) {
    const size_t next = s.find(sep, at);
    out.push_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
    if (next == std::string_view::npos) return out;
    at = next + 1;
  }
}

// "name[=value]", both trimmed.
struct Token {
  std::string_view name, value;
  bool has_value = false;
};

Token split_token(std::string_view t) {
  const size_t eq = t.find('=');
  if (eq == std::string_view::npos) return {trim(t), {}, false};
  return {trim(t.substr(0, eq)), trim(t.substr(eq + 1)), true};
}

constexpr std::pair<std::string_view, PartitionMember::Kind> kKeywords[] = {
    {"ALL", PartitionMember::Kind::All},
    {"ALL_CAS", PartitionMember::Kind::AllCas},
    {"ALL_SWITCHES", PartitionMember::Kind::AllSwitches},
    {"ALL_ROUTERS", PartitionMember::Kind::AllRouters},
    {"SELF", PartitionMember::Kind::Self},
};

// The flags that set the IPoIB broadcast group's parameters: each takes a number.
constexpr std::string_view kNumericFlags[] = {"mtu", "rate", "sl", "scope", "Q_Key", "TClass", "FlowLabel"};

// Reads line by line as opensm does: a definition's name and flags end at the first ':' of
// its line, its members run on over lines to the ';', and an mgid entry takes the rest of its
// line (its group's flags).
class Parser {
 public:
  explicit Parser(const std::string& file) { out_.file = file; }

  Partitions parse(const std::string& text) {
    int n = 0;
    for (size_t at = 0; at < text.size();) {
      const size_t eol = std::min(text.find('\n', at), text.size());
      std::string_view line(text.data() + at, eol - at);
      at = eol + 1;
      ++n;
      line = line.substr(0, line.find('#'));
      for (line = trim(line); !line.empty(); line = trim(line)) {
        const size_t semi = line.find(';');
        std::string_view part = line.substr(0, semi);
        if (!open_) {
          const size_t colon = part.find(':');
          if (colon == std::string_view::npos)
            fail(n, fmt::format("'{}' is not a partition's definition: no ':' before its members", trim(part)));
          definition(part.substr(0, colon), n);
          part.remove_prefix(colon + 1);
        }
        members(part, n);
        if (semi == std::string_view::npos) break;
        open_.reset();
        line.remove_prefix(semi + 1);
      }
    }
    if (open_) fail(open_line_, fmt::format("the definition of {} has no closing ';'", label(*open_)));
    return std::move(out_);
  }

 private:
  Partitions out_;
  std::map<uint16_t, size_t> by_pkey_;
  std::set<uint16_t> generated_;
  uint16_t counter_ = 0;        // opensm's, for the P_Keys of definitions that give none
  std::optional<size_t> open_;  // the partition whose definition has not reached its ';'
  int open_line_ = 0;
  Membership defmember_ = Membership::Limited;

  [[noreturn]] void fail(int line, const std::string& reason) const { throw InputError(out_.file, line, reason); }

  std::string label(size_t p) const {
    const Partition& part = out_.partitions[p];
    return part.name.empty() ? fmt::format("partition 0x{:04x}", part.pkey) : "partition '" + part.name + "'";
  }

  void definition(std::string_view text, int line) {
    const auto tokens = split(text, ',');
    auto [name, id, has_id] = split_token(tokens[0]);
    if (!has_id && !name.empty() && std::isdigit(static_cast<unsigned char>(name[0]))) {
      id = name;  // "0x8001 : ..." gives only a P_Key
      name = {};
      has_id = true;
    }
    std::optional<uint16_t> pkey;
    if (has_id) {
      const auto v = parse_number(id);
      if (!v) fail(line, fmt::format("P_Key '{}' is not a number", id));
      if (*v > 0xffff) fail(line, fmt::format("P_Key {} does not fit 16 bits", id));
      pkey = partition_key(static_cast<uint16_t>(*v));
      if (*pkey == 0) fail(line, fmt::format("P_Key {} has no partition key: its low 15 bits are 0", id));
    }
    defmember_ = Membership::Limited;
    for (size_t i = 1; i < tokens.size(); ++i) flag(tokens[i], line);
    open_ = partition_for(name, pkey, line);
    open_line_ = line;
  }

  void flag(std::string_view text, int line) {
    const auto [name, value, has_value] = split_token(text);
    if (name == "ipoib" || name == "indx0") {
      if (has_value) fail(line, fmt::format("partition flag '{}' takes no value", name));
    } else if (name == "defmember") {
      const auto m = parse_membership(value);
      if (!m) fail(line, fmt::format("defmember '{}' is not full, limited or both", value));
      defmember_ = *m;
    } else if (std::find(std::begin(kNumericFlags), std::end(kNumericFlags), name) != std::end(kNumericFlags)) {
      if (!parse_number(value)) fail(line, fmt::format("partition flag '{}' needs a number, not '{}'", name, value));
    } else {
      fail(line, fmt::format("unknown partition flag '{}'", name));
    }
  }

  size_t partition_for(std::string_view name, std::optional<uint16_t> pkey, int line) {
    if (!pkey) {
      // opensm: a definition without a P_Key adds to the partition of its name, else takes
      // the next key its counter finds free (the default partition's is never free).
      for (size_t i = 0; i < out_.partitions.size(); ++i)
        if (!name.empty() && out_.partitions[i].name == name) return i;
      do {
        if (counter_ + 1 >= kDefaultPkey) fail(line, "no P_Key is left for opensm to give this partition");
        ++counter_;
      } while (by_pkey_.count(counter_));
      pkey = counter_;
      generated_.insert(counter_);
    } else if (auto it = by_pkey_.find(*pkey); it != by_pkey_.end()) {
      // opensm merges the definitions of one P_Key under the first one's name; a second name
      // is likelier a wrong key than a wish to merge.
      const Partition& p = out_.partitions[it->second];
      if (!name.empty() && !p.name.empty() && p.name != name)
        fail(line, fmt::format("P_Key 0x{:04x} is partition '{}' already (line {}{}), not '{}'", *pkey, p.name, p.line,
                               generated_.count(*pkey) ? ": opensm gave it that key" : "", name));
      return it->second;
    }
    by_pkey_[*pkey] = out_.partitions.size();
    out_.partitions.push_back({std::string(name), *pkey, {}, line});
    return out_.partitions.size() - 1;
  }

  void members(std::string_view text, int line) {
    for (std::string_view item : split(text, ',')) {
      const auto [name, flag, has_flag] = split_token(item);
      if (name == "mgid") return;  // a multicast group: it and its flags take the rest of the line
      if (item.find(':') != std::string_view::npos)
        fail(line, fmt::format("'{}' is not a member: is the ';' ending the definition on line {} missing?", trim(item),
                               open_line_));
      if (name.empty() || name == "NONE") continue;
      PartitionMember m;
      const std::string_view word = name;  // a lambda cannot capture a structured binding before clang 16
      const auto* keyword =
          std::find_if(std::begin(kKeywords), std::end(kKeywords), [&](const auto& k) { return k.first == word; });
      if (keyword != std::end(kKeywords)) {
        m.kind = keyword->second;
      } else {
        const auto guid = parse_number(name);
        if (!guid)
          fail(line,
               fmt::format("'{}' is not a port GUID, nor ALL, ALL_CAS, ALL_SWITCHES, ALL_ROUTERS, SELF or NONE", name));
        if (*guid == 0) fail(line, "port GUID 0 names no port");
        m.kind = PartitionMember::Kind::Guid;
        m.guid = *guid;
      }
      if (has_flag) {
        const auto membership = parse_membership(flag);
        if (!membership)
          fail(line, fmt::format("membership '{}' of {} is not full, limited or both (opensm would take it as limited)",
                                 flag, name));
        m.membership = *membership;
      } else {
        m.membership = defmember_;
      }
      out_.partitions[*open_].members.push_back(m);
    }
  }
};

}  // namespace

const char* to_string(Membership m) {
  switch (m) {
    case Membership::Limited: return "limited";
    case Membership::Full: return "full";
    case Membership::Both: return "both";
  }
  return "?";
}

Partitions parse_partitions(const std::string& text, const std::string& file) { return Parser(file).parse(text); }

const Partition* find_partition(const Partitions& partitions, uint16_t pkey) {
  for (const auto& p : partitions.partitions)
    if (p.pkey == partition_key(pkey)) return &p;
  return nullptr;
}

}  // namespace ibburn::audit
