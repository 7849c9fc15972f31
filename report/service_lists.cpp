#include "report/service_lists.h"

#include <map>
#include <sstream>

#include "common/csv.h"
#include "common/error.h"

namespace ibburn::report {

DrainList parse_drain(const std::string& text) {
  DrainList out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line[0] == '#') {
      out.notes.push_back(line.substr(line.compare(0, 2, "# ") == 0 ? 2 : 1));
      continue;
    }
    const auto tab = line.find('\t');
    DrainRow row{line.substr(0, tab), tab == std::string::npos ? "" : line.substr(tab + 1), ""};
    if (const auto cost = row.reason.find("\tcost: "); cost != std::string::npos)
      row.cost = row.reason.substr(cost + 7), row.reason.resize(cost);
    out.hosts.push_back(std::move(row));
  }
  return out;
}

std::vector<CableRow> parse_cables_csv(const std::string& text, const std::string& origin) {
  std::istringstream in(text);
  std::vector<CableRow> out;
  std::map<std::string, size_t> column;
  int lineno = 0;
  for (std::string line; std::getline(in, line);) {
    ++lineno;
    const auto fields = split_csv_line(line, origin, lineno);
    if (fields.empty()) continue;
    if (column.empty()) {
      for (size_t i = 0; i < fields.size(); ++i) column[fields[i]] = i;
      for (const char* required : {"a_node", "a_port", "b_node", "b_port", "action"})
        if (!column.count(required))
          throw InputError(origin, lineno, std::string("header has no column '") + required + "'");
      continue;
    }
    if (fields.size() < column.size())
      throw InputError(
          origin, lineno,
          "row has " + std::to_string(fields.size()) + " fields, the header " + std::to_string(column.size()));
    auto get = [&](std::initializer_list<const char*> names) -> std::string {
      for (const char* n : names)
        if (auto it = column.find(n); it != column.end()) return fields[it->second];
      return "";
    };
    out.push_back({get({"a_node"}), get({"a_port"}), get({"b_node"}), get({"b_port"}), get({"cable"}), get({"action"}),
                   get({"evidence"}), get({"a_part"}), get({"b_part"}), get({"cost"})});
  }
  return out;
}

std::string module_text(const CableRow& c) {
  if (c.a_part == c.b_part) return c.a_part;
  std::string out = c.a_part.empty() ? "" : "A: " + c.a_part;
  if (!c.b_part.empty()) out += (out.empty() ? "B: " : "; B: ") + c.b_part;
  return out;
}

std::string drain_as_text(const std::vector<DrainRow>& hosts) {
  std::string out;
  for (const auto& h : hosts)
    out += h.host + "\t" + h.reason + (h.cost.empty() ? "" : " (costs " + h.cost + ")") + "\n";
  return out;
}

std::string cables_as_text(const std::vector<CableRow>& cables) {
  std::string out;
  for (const auto& c : cables) {
    const std::string module = module_text(c);
    out += (c.label.empty() ? "" : c.label + ": ") + c.a_node + "[" + c.a_port + "] <-> " + c.b_node + "[" + c.b_port +
           "]: " + c.action + (module.empty() ? "" : " (" + module + ")") +
           (c.cost.empty() ? "" : " [" + c.cost + "]") + ": " + c.evidence + "\n";
  }
  return out;
}

}  // namespace ibburn::report
