#include <algorithm>
#include <iostream>
#include <vector>

#include "app/build_info.h"
#include "app/command.h"
#include "app/site_options.h"
#include "common/duration.h"
#include "common/error.h"
#include "common/exit_codes.h"
#include "common/size.h"

namespace ibburn::app {
namespace {
std::vector<RegisterFn>& registry() {
  static std::vector<RegisterFn> fns;
  return fns;
}
int g_exit_code = 0;
}  // namespace

Registrar::Registrar(RegisterFn fn) { registry().push_back(std::move(fn)); }

CLI::App& group(CLI::App& parent, const std::string& name, const std::string& description) {
  for (CLI::App* sub : parent.get_subcommands([](CLI::App*) { return true; }))
    if (sub->get_name() == name) return *sub;
  CLI::App* sub = parent.add_subcommand(name, description);
  sub->require_subcommand(1);
  return *sub;
}

void set_exit_code(int code) { g_exit_code = code; }

std::chrono::milliseconds duration_option(const std::string& text, const char* option) {
  try {
    return parse_duration(text);
  } catch (const std::invalid_argument& e) {
    throw Error(kExitInput, std::string(option) + ": " + e.what());
  }
}

std::size_t size_option(const std::string& text, const char* option) {
  try {
    return parse_size(text);
  } catch (const std::invalid_argument& e) {
    throw Error(kExitInput, std::string(option) + ": " + e.what());
  }
}

}  // namespace ibburn::app

int main(int argc, char** argv) {
  using namespace ibburn;
  CLI::App root{
      "ibburn: certify InfiniBand fabrics of GPU clusters (topology, counters, host "
      "preflight, line-rate burn)"};
  root.name("ibburn");
  root.require_subcommand(1);
  root.set_version_flag("--version", app::version_text(app::kBuildInfo));
  // Taken out of the arguments before parsing (app/site_options.h); declared for --help and the man page.
  std::string config_file;
  root.add_option("--config", config_file,
                  "a site option file read after " + std::string(app::kSiteConfigFile) +
                      " (before or after the command; the command line overrides both)");
  for (auto& fn : app::registry()) fn(root);
  std::vector<std::string> args(argv + 1, argv + argc);
  CLI::App* cmd = nullptr;
  try {
    app::SiteConfig site = app::load_site_config(args);
    check_site_config(site.layers, app::option_table(root));
    const auto [command, leaf] = app::command_of(root, args);
    cmd = leaf;
    if (leaf != &root) app::apply_site_config(site, *leaf, command);
    app::set_site_config(std::move(site));
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    root.parse(args);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return root.exit(e);
    std::cerr << app::with_config_origin(app::site_config(), cmd, e.what()) << "\n";
    std::cerr << "Run with --help for more information.\n";
    return kExitInput;
  } catch (const Error& e) {
    const std::string what =
        e.code() == kExitInput ? app::with_config_origin(app::site_config(), cmd, e.what()) : std::string(e.what());
    std::cerr << "ibburn: " << what << "\n";
    return e.code();
  } catch (const std::exception& e) {
    std::cerr << "ibburn: internal error: " << e.what() << "\n";
    return kExitEnvironment;
  }
  return app::g_exit_code;
}
