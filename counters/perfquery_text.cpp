#include "counters/perfquery_text.h"

#include <cerrno>
#include <cstdlib>
#include <regex>
#include <sstream>

#include "common/error.h"

namespace ibburn::counters {

std::vector<PerfqueryBlock> parse_perfquery_text(const std::string& text, const std::string& origin) {
  static const std::regex header(R"(^# (.+?):\s*Lid (\d+) port (\d+)\b.*$)");
  static const std::regex field(R"(^(\w+):\.*\s*(\S+)\s*$)");
  std::vector<PerfqueryBlock> blocks;
  std::istringstream in(text);
  std::string line;
  int line_no = 0;
  std::smatch m;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (std::regex_match(line, m, header)) {
      PerfqueryBlock b;
      b.attribute = m[1];
      b.lid = static_cast<uint16_t>(std::stoul(m[2]));
      b.port = std::stoi(m[3]);
      b.line = line_no;
      blocks.push_back(std::move(b));
      continue;
    }
    if (!std::regex_match(line, m, field))
      throw InputError(origin, line_no, "not a perfquery header or field: '" + line + "'");
    if (blocks.empty()) throw InputError(origin, line_no, "field before any '# ... Lid L port P' header");
    errno = 0;
    char* end = nullptr;
    std::string value = m[2];
    unsigned long long v = std::strtoull(value.c_str(), &end, 0);
    if (errno != 0 || *end != '\0')
      throw InputError(origin, line_no, "value of " + std::string(m[1]) + " is not a number: '" + value + "'");
    blocks.back().fields.emplace_back(m[1], v);
  }
  return blocks;
}

CounterValues counters_from_perfquery(const PerfqueryBlock& block) {
  const bool extended = block.attribute.find("extended") != std::string::npos;
  CounterValues out;
  for (const auto& [name, value] : block.fields) {
    auto c = counter_from_name(name);
    if (!c) continue;
    out.set(*c, value, extended ? 64 : port_counters_bits(*c));
  }
  return out;
}

}  // namespace ibburn::counters
