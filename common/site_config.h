#pragma once
// The site's option file (/etc/ibburn/ibburn.conf, then `--config FILE`; docs/deploy.md):
// the options a site sets once (wiring, node-name map, thresholds, firmware baseline,
// --max-drain, history, Slurm) as the commands' own long options, below the command line:
//
//   # every command that has the option takes it
//   wiring = /etc/ibburn/wiring.csv
//   node-name-map = /etc/ibburn/node-name-map
//   [run]                  # only `ibburn run` ("[topo check]" for a nested command)
//   max-drain = 2%
//
// Pure: text in, entries out, and which entry each option of a command takes; app/ applies
// them to the command being parsed.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ibburn {

struct ConfigEntry {
  std::string command;  // "" (every command with the option) or the section: "run", "topo check"
  std::string key;      // the long option without its dashes: "max-drain"
  std::string value;
  std::string file;
  int line = 0;
  std::string where() const { return file + ":" + std::to_string(line); }
};

// The entries of one file, in its order. A line that is not `key = value`, `[command]`, a
// comment (`#` or `;` first) or blank is an InputError naming the file and line.
std::vector<ConfigEntry> parse_site_config(std::string_view text, const std::string& file);

// The commands and their long options, as the CLI declares them ("topo check" -> {"wiring", ...}).
using OptionTable = std::map<std::string, std::set<std::string>>;

// Every entry names an option some command has, and a section names a command that has it;
// otherwise an InputError naming the entry's file and line.
void check_site_config(const std::vector<ConfigEntry>& entries, const OptionTable& options);

// The entry each option of `command` takes from `layers` (the files in order, each
// overriding the last; within a file the command's own section overrides the top part):
// option -> entry.
std::map<std::string, ConfigEntry> entries_for(const std::vector<ConfigEntry>& layers, const std::string& command,
                                               const std::set<std::string>& options_of_command);

}  // namespace ibburn
