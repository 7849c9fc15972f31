#include "app/site_options.h"

#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "common/error.h"
#include "common/file_io.h"

namespace ibburn::app {
namespace {

SiteConfig& stored() {
  static SiteConfig s;
  return s;
}

void read_layer(SiteConfig& site, const std::string& file) {
  site.files.push_back(file);
  for (auto& e : parse_site_config(read_file(file), file)) site.layers.push_back(std::move(e));
}

// The subcommands of `app` with a name (CLI11 keeps option groups as nameless ones).
std::vector<CLI::App*> commands_under(CLI::App& app) {
  std::vector<CLI::App*> out;
  for (CLI::App* sub : app.get_subcommands([](CLI::App* s) { return !s->get_name().empty(); })) out.push_back(sub);
  return out;
}

void collect(CLI::App& app, const std::string& path, OptionTable& out) {
  for (CLI::App* sub : commands_under(app)) {
    const std::string name = path.empty() ? sub->get_name() : path + " " + sub->get_name();
    out[name] = long_options(*sub);
    collect(*sub, name, out);
  }
}

}  // namespace

SiteConfig load_site_config(std::vector<std::string>& args) {
  SiteConfig site;
  const char* env = std::getenv("IBBURN_SITE_CONFIG");
  const std::string first = env ? env : kSiteConfigFile;
  if (!first.empty() && (env || std::filesystem::exists(first))) read_layer(site, first);
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--") break;
    std::string file;
    if (args[i] == "--config") {
      if (i + 1 == args.size()) throw Error(kExitInput, "--config: needs a file");
      file = args[i + 1];
      args.erase(args.begin() + static_cast<long>(i), args.begin() + static_cast<long>(i) + 2);
    } else if (args[i].starts_with("--config=")) {
      file = args[i].substr(9);
      args.erase(args.begin() + static_cast<long>(i));
    } else {
      continue;
    }
    read_layer(site, file);
    --i;
  }
  return site;
}

std::set<std::string> long_options(const CLI::App& cmd) {
  std::set<std::string> out;
  for (const CLI::Option* o : cmd.get_options())
    for (const auto& l : o->get_lnames())
      if (l != "help") out.insert(l);
  return out;
}

OptionTable option_table(CLI::App& root) {
  OptionTable out;
  collect(root, "", out);
  return out;
}

std::pair<std::string, CLI::App*> command_of(CLI::App& root, const std::vector<std::string>& args) {
  std::string path;
  CLI::App* at = &root;
  for (const auto& word : args) {
    CLI::App* next = nullptr;
    for (CLI::App* sub : commands_under(*at))
      if (sub->check_name(word)) next = sub;
    if (!next) break;
    at = next;
    path += (path.empty() ? "" : " ") + at->get_name();
  }
  return {path, at};
}

void apply_site_config(SiteConfig& site, CLI::App& cmd, const std::string& command) {
  for (auto& [key, entry] : entries_for(site.layers, command, long_options(cmd))) {
    CLI::Option* o = cmd.get_option("--" + key);
    try {
      // The value lands in the option's variable now, as if it were the declared default.
      o->run_callback_for_default()->default_val(entry.value);
    } catch (const CLI::Error& e) {
      throw InputError(entry.file, entry.line, "--" + key + ": " + e.what());
    }
    site.applied.emplace(key, entry);
  }
}

std::string with_config_origin(const SiteConfig& site, CLI::App* cmd, const std::string& message) {
  // The option a message is about is the first it names ("--max-ber: ...", "Could not
  // convert: --coverage = x"); later ones are advice ("use --fabric live").
  const size_t at = message.find("--");
  if (at == std::string::npos || !cmd) return message;
  size_t end = at + 2;
  while (end < message.size() && (std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '-')) ++end;
  const std::string key = message.substr(at + 2, end - at - 2);
  const auto entry = site.applied.find(key);
  const CLI::Option* o = cmd->get_option_no_throw("--" + key);
  if (entry == site.applied.end() || !o || o->count() > 0) return message;
  return entry->second.where() + ": " + message;
}

bool given(const CLI::App& cmd, const std::string& option) {
  return cmd.count(option) > 0 || stored().applied.count(option.substr(2)) > 0;
}

const SiteConfig& site_config() { return stored(); }
void set_site_config(SiteConfig site) { stored() = std::move(site); }

}  // namespace ibburn::app
