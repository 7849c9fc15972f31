#pragma once
// What `--help` shows of a CLI11 command tree, for the formatters that write the same
// declarations out another way (app/man_page.h, app/bash_completion.h): commands and options
// hidden from --help (an empty group) are hidden from them too, and the order is --help's.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ibburn::app {

std::vector<const CLI::App*> visible_subcommands(const CLI::App& app);
// Named and positional options, -h/--help included.
std::vector<const CLI::Option*> visible_options(const CLI::App& app);
// "ibburn topo show": the names from the root down.
std::string command_path(const CLI::App& app);
// Whether an option takes a value (false: a flag), as --help decides it.
bool takes_value(const CLI::Option& option);
// A command that does something of its own: it needs no subcommand, or has options besides
// --help (`counters` sweeps, `counters watch` watches). A bare group (`wiring gen`) is not.
bool runnable(const CLI::App& app);

}  // namespace ibburn::app
