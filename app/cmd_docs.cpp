// `ibburn --write-docs DIR` (hidden): the man pages (DIR/man/NAME.8) and the bash completion
// (DIR/completion/ibburn) written from this binary's own command tree, the one --help prints.
// The build runs it after linking ibburn (app/CMakeLists.txt), so neither can drift.
#include "app/bash_completion.h"
#include "app/build_info.h"
#include "app/command.h"
#include "app/man_page.h"
#include "common/file_io.h"

namespace ibburn::app {
namespace {

void write_docs(const CLI::App& root, const std::string& dir) {
  make_dirs(dir + "/man");
  for (const ManPage& page : man_pages(root, std::string("ibburn ") + kBuildInfo.version))
    write_file_atomic(dir + "/man/" + page.name + ".8", page.roff);
  make_dirs(dir + "/completion");
  write_file_atomic(dir + "/completion/" + root.get_name(), bash_completion(root));
}

Registrar reg([](CLI::App& root) {
  // The callback runs once every command is registered (at parse time), and stops there.
  root.add_option_function<std::string>(
          "--write-docs",
          [&root](const std::string& dir) {
            write_docs(root, dir);
            throw CLI::Success();
          },
          "write man pages and bash completion under DIR")
      ->group("");
});

}  // namespace
}  // namespace ibburn::app
