#include "ibqueryerrors_output.h"

#include <regex>
#include <sstream>

namespace ibburn::counters::testing {

std::set<std::pair<std::string, int>> IbqueryerrorsOutput::flagged() const {
  std::set<std::pair<std::string, int>> out;
  for (const auto& [key, counters] : ports) out.insert(key);
  return out;
}

IbqueryerrorsOutput parse_ibqueryerrors(const std::string& text) {
  static const std::regex header(R"re(^Errors for (?:0x[0-9a-fA-F]+ )?"(.*)"$)re");
  static const std::regex port_line(R"(^\s+GUID 0x[0-9a-fA-F]+ port (\d+|ALL):(.*)$)");
  static const std::regex counter(R"(\[(\w+) == (\d+))");
  static const std::regex summary(R"(^##\s+(\d+) ports checked, (\d+) ports have errors)");
  IbqueryerrorsOutput out;
  std::istringstream in(text);
  std::string line, node;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, header)) {
      node = m[1];
    } else if (std::regex_match(line, m, port_line) && m[1] != "ALL") {
      auto& counters = out.ports[{node, std::stoi(m[1])}];
      std::string rest = m[2];
      for (std::sregex_iterator it(rest.begin(), rest.end(), counter), end; it != end; ++it)
        counters[(*it)[1]] = std::stoull((*it)[2]);
    } else if (std::regex_search(line, m, summary)) {
      out.summary_bad_ports = std::stoi(m[2]);
    }
  }
  return out;
}

}  // namespace ibburn::counters::testing
