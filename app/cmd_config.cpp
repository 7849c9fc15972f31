// `ibburn config show [COMMAND...]`: the site's option files (app/site_options.h) as in force,
// each value with where it came from.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "app/command.h"
#include "app/site_options.h"
#include "common/error.h"

namespace ibburn::app {
namespace {

void show(CLI::App& root, const std::vector<std::string>& words) {
  const SiteConfig& site = site_config();
  std::cout << "# files, each overriding the last, the command line over all:";
  if (site.files.empty()) std::cout << " none (" << kSiteConfigFile << " is absent)";
  for (const auto& f : site.files) std::cout << " " << f;
  std::cout << "\n";
  if (words.empty()) {
    for (const auto& e : site.layers)
      std::cout << fmt::format("{}{} = {}  # {}\n", e.command.empty() ? "" : "[" + e.command + "] ", e.key, e.value,
                               e.where());
    return;
  }
  // "run" -> the run App, "topo check" -> the nested one; every word must name a command.
  const auto [command, cmd] = command_of(root, words);
  std::string wanted;
  for (const auto& w : words) wanted += (wanted.empty() ? "" : " ") + w;
  if (command != wanted) throw Error(kExitInput, "config show: '" + wanted + "' is not an ibburn command");
  const auto taken = entries_for(site.layers, command, long_options(*cmd));
  std::cout << "# ibburn " << command << "\n";
  for (const CLI::Option* o : cmd->get_options()) {
    if (o->get_lnames().empty() || o->get_lnames().front() == "help") continue;
    const std::string& key = o->get_lnames().front();
    const auto it = taken.find(key);
    if (it != taken.end())
      std::cout << fmt::format("{} = {}  # {}\n", key, it->second.value, it->second.where());
    else
      std::cout << fmt::format("{} = {}  # default\n", key, o->get_default_str());
  }
}

Registrar reg([](CLI::App& root) {
  CLI::App& config = group(root, "config", "the site's option files (" + std::string(kSiteConfigFile) + ", --config)");
  CLI::App* cmd = config.add_subcommand(
      "show",
      "print the options in force for COMMAND (\"run\", \"topo check\") and where each came from; without "
      "one, every line the files set");
  auto words = std::make_shared<std::vector<std::string>>();
  cmd->add_option("COMMAND", *words, "the command, as typed after ibburn");
  cmd->callback([&root, words] { show(root, *words); });
});

}  // namespace
}  // namespace ibburn::app
