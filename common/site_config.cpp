#include "common/site_config.h"

#include <algorithm>

#include "common/error.h"
#include "common/text.h"

namespace ibburn {

std::vector<ConfigEntry> parse_site_config(std::string_view text, const std::string& file) {
  std::vector<ConfigEntry> out;
  std::string section;
  int lineno = 0;
  for (size_t at = 0; at <= text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view raw = text.substr(at, end - at);
    at = end + 1;
    ++lineno;
    std::string_view line = trim(raw);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    // A trailing comment, after whitespace: values (paths, node names) never hold " #".
    if (const size_t hash = line.find(" #"); hash != std::string_view::npos) line = trim(line.substr(0, hash));
    if (line.front() == '[') {
      if (line.back() != ']' || line.size() < 3)
        throw InputError(file, lineno,
                         "expected a section such as [run] or [topo check], got '" + std::string(line) + "'");
      // "[topo check]" and "[topo.check]" both name `ibburn topo check`.
      section.clear();
      for (const char c : trim(line.substr(1, line.size() - 2))) section += c == '.' ? ' ' : c;
      continue;
    }
    const size_t eq = line.find('=');
    if (eq == std::string_view::npos)
      throw InputError(file, lineno, "expected 'option = value', got '" + std::string(line) + "'");
    std::string key(trim(line.substr(0, eq)));
    if (key.starts_with("--")) key.erase(0, 2);  // as on the command line
    if (key.empty()) throw InputError(file, lineno, "no option name before '='");
    std::string value(trim(line.substr(eq + 1)));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') && value.back() == value.front())
      value = value.substr(1, value.size() - 2);
    out.push_back({section, key, value, file, lineno});
  }
  return out;
}

void check_site_config(const std::vector<ConfigEntry>& entries, const OptionTable& options) {
  for (const ConfigEntry& e : entries) {
    if (e.command.empty()) {
      bool known = false;
      for (const auto& [command, names] : options) known = known || names.count(e.key);
      if (!known) throw InputError(e.file, e.line, "'" + e.key + "' is not an option of any ibburn command");
      continue;
    }
    const auto cmd = options.find(e.command);
    if (cmd == options.end()) throw InputError(e.file, e.line, "[" + e.command + "] is not an ibburn command");
    if (!cmd->second.count(e.key))
      throw InputError(e.file, e.line, "'" + e.key + "' is not an option of 'ibburn " + e.command + "'");
  }
}

std::map<std::string, ConfigEntry> entries_for(const std::vector<ConfigEntry>& layers, const std::string& command,
                                               const std::set<std::string>& options_of_command) {
  std::map<std::string, ConfigEntry> out;
  std::map<std::string, bool> from_section;  // the option's entry came from this file's [command]
  std::string file;
  for (const ConfigEntry& e : layers) {
    if (e.file != file) file = e.file, from_section.clear();  // a later file overrides all of an earlier one
    if (!options_of_command.count(e.key) || (!e.command.empty() && e.command != command)) continue;
    const bool section = !e.command.empty();
    if (!section && from_section[e.key]) continue;  // the file's own [command] wins over its top part
    out[e.key] = e;
    from_section[e.key] = section;
  }
  return out;
}

}  // namespace ibburn
