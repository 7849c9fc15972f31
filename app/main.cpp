#include <iostream>
#include <vector>

#include "app/build_info.h"
#include "app/command.h"
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
  for (auto& fn : app::registry()) fn(root);
  try {
    root.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = root.exit(e);
    return rc == 0 ? kExitOk : kExitInput;
  } catch (const Error& e) {
    std::cerr << "ibburn: " << e.what() << "\n";
    return e.code();
  } catch (const std::exception& e) {
    std::cerr << "ibburn: internal error: " << e.what() << "\n";
    return kExitEnvironment;
  }
  return app::g_exit_code;
}
