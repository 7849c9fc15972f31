#include "app/cli_tree.h"

namespace ibburn::app {

std::vector<const CLI::App*> visible_subcommands(const CLI::App& app) {
  // Unnamed subcommands are CLI11's option groups, not commands.
  return app.get_subcommands([](const CLI::App* sub) { return !sub->get_name().empty() && !sub->get_group().empty(); });
}

std::vector<const CLI::Option*> visible_options(const CLI::App& app) {
  return app.get_options([](const CLI::Option* opt) { return !opt->get_group().empty(); });
}

std::string command_path(const CLI::App& app) {
  const CLI::App* parent = app.get_parent();
  return parent ? command_path(*parent) + " " + app.get_name() : app.get_name();
}

bool takes_value(const CLI::Option& option) { return option.get_items_expected_max() > 0; }

bool runnable(const CLI::App& app) {
  if (app.get_require_subcommand_min() == 0) return true;
  for (const CLI::Option* opt : visible_options(app))
    if (opt != app.get_help_ptr() && opt != app.get_help_all_ptr()) return true;
  return false;
}

}  // namespace ibburn::app
