#pragma once
// Man pages in section 8 written from a CLI11 command tree, the declarations --help prints, so
// the pages cannot drift from the options: ibburn(8) for the root (its commands, its own
// options) and ibburn-COMMAND(8) for each top-level command, with one subsection per command
// below it that runs (`ibburn topo show`, `ibburn wiring gen fat-tree`; a bare group such as
// `wiring gen` has none). Every option is listed with its value's type, its description, its
// default where it declares one, and whether it is required; EXIT STATUS comes from
// common/exit_codes.h. Pure: the tree in, roff text out (ibburn --write-docs writes the files).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace ibburn::app {

struct ManPage {
  std::string name;  // "ibburn-topo": the file is NAME.8
  std::string roff;
};

// `version` is the page footer's source, e.g. "ibburn 0.1.0".
std::vector<ManPage> man_pages(const CLI::App& root, const std::string& version);

// `text` safe as roff body text: backslashes printed as such, and no line taken as a request.
std::string roff_escape(const std::string& text);

}  // namespace ibburn::app
