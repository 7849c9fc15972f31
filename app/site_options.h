#pragma once
// The site's option files (common/site_config.h) applied to the command being parsed: each
// option they set becomes that option's default, so the command line still overrides it and
// `--help` shows the site's value. Order: /etc/ibburn/ibburn.conf, then `--config FILE`, then
// the command line, each overriding the last.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/site_config.h"

namespace ibburn::app {

// The site file ibburn reads first: $IBBURN_SITE_CONFIG when set (empty: none), else this.
inline constexpr const char* kSiteConfigFile = "/etc/ibburn/ibburn.conf";

struct SiteConfig {
  std::vector<std::string> files;   // read, in order
  std::vector<ConfigEntry> layers;  // their entries, in that order
  // What the command being run took: option -> entry (for messages naming the file and line).
  std::map<std::string, ConfigEntry> applied;
};

// Reads the site file (a missing /etc file is no error; a missing one named otherwise is), and
// takes `--config FILE` (or `--config=FILE`, anywhere) out of `args`, reading it after.
SiteConfig load_site_config(std::vector<std::string>& args);

// The long options of one command, without dashes ("wiring", "max-drain"), --help left out.
std::set<std::string> long_options(const CLI::App& cmd);

// Every command of the CLI ("topo check") and its long options.
OptionTable option_table(CLI::App& root);

// The command `args` names ("topo check") and its App; the root when they name none.
std::pair<std::string, CLI::App*> command_of(CLI::App& root, const std::vector<std::string>& args);

// Gives each option of `cmd` that `site` sets its value as the default, recorded in
// site.applied; a value the option refuses is an InputError naming the file and line.
void apply_site_config(SiteConfig& site, CLI::App& cmd, const std::string& command);

// A usage error about an option the site file set (and the command line did not) names the
// file and line too: "/etc/ibburn/ibburn.conf:7: --max-drain: ...". Other messages unchanged.
std::string with_config_origin(const SiteConfig& site, CLI::App* cmd, const std::string& message);

// Whether `option` ("--fabric") was given on the command line or by the site's files.
bool given(const CLI::App& cmd, const std::string& option);

// The files read and what they set, for `ibburn config show` (set by main before parsing).
const SiteConfig& site_config();
void set_site_config(SiteConfig site);

}  // namespace ibburn::app
