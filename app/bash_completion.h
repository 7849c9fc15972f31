#pragma once
// A bash completion script written from a CLI11 command tree, the declarations --help prints:
// subcommands, each command's options, and which options take a value (whose word is then a
// file, not a command). Pure: the tree in, the script out (ibburn --write-docs writes it; a
// site sources it from /usr/share/bash-completion/completions/ibburn).
#include <string>

#include <CLI/CLI.hpp>

namespace ibburn::app {

// The script defines _ROOT (the completion function) and _ROOT_words (its table), and
// registers _ROOT for the command ROOT, ROOT being the root's name.
std::string bash_completion(const CLI::App& root);

}  // namespace ibburn::app
