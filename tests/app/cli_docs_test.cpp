// The man page and bash completion writers (app/man_page.h, app/bash_completion.h) on a small
// command tree with each kind of option; the real tree's pages are checked against its --help
// by generated_docs_test.sh.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <regex>
#include <sstream>

#include "app/bash_completion.h"
#include "app/man_page.h"
#include "common/exit_codes.h"
#include "common/file_io.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"

namespace ibburn::app {
namespace {

struct Tree {
  CLI::App root{"does things"};
  std::string output, name, secret;
  int count = 3;
  bool dry_run = false;
  std::vector<std::string> files;

  Tree() {
    root.name("tool");
    root.require_subcommand(1);
    root.set_version_flag("--version", "tool 1");
    CLI::App* grp = root.add_subcommand("grp", "a group of commands");
    grp->require_subcommand(1);
    CLI::App* leaf = grp->add_subcommand("leaf", "does the leaf's work");
    leaf->add_option("-o,--output", output, "where it goes")->required();
    CLI::Option* count_opt = leaf->add_option("--count", count, "how many")->capture_default_str();
    leaf->add_flag("--dry-run", dry_run, ".starts with a dot, holds a \\ backslash")->excludes(count_opt);
    leaf->add_option("--secret", secret, "not in --help")->group("");
    leaf->add_option("FILES", files, "inputs");
    root.add_subcommand("single", "runs alone")->add_option("--name", name, "a name");
    root.add_subcommand("internal", "not in --help")->group("");
  }
};

std::map<std::string, std::string> pages_of(const CLI::App& root) {
  std::map<std::string, std::string> pages;
  for (const ManPage& p : man_pages(root, "tool 1.2")) pages[p.name] = p.roff;
  return pages;
}

TEST(ManPage, OnePageForTheRootAndEachVisibleCommand) {
  Tree t;
  auto pages = pages_of(t.root);
  std::vector<std::string> names;
  for (const auto& [name, roff] : pages) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"tool", "tool-grp", "tool-single"}));
  EXPECT_NE(pages["tool"].find(".TH TOOL 8 \"\" \"tool 1.2\"\n"), std::string::npos);
  EXPECT_NE(
      pages["tool-grp"].find(".TH TOOL\\-GRP 8 \"\" \"tool 1.2\"\n.SH NAME\ntool\\-grp \\- a group of commands\n"),
      std::string::npos);
}

TEST(ManPage, ASubsectionPerRunnableCommandWithEveryOption) {
  Tree t;
  const std::string page = pages_of(t.root)["tool-grp"];
  // The bare group has no subsection of its own, its leaf one with a synopsis.
  EXPECT_EQ(page.find(".SS tool grp\n"), std::string::npos);
  EXPECT_NE(page.find(".SH SYNOPSIS\n.B tool grp leaf\n\\fB\\-\\-output\\fR \\fITEXT\\fR [\\fIOPTIONS\\fR] "
                      "[\\fIFILES\\fR ...]\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find(".SS tool grp leaf\ndoes the leaf's work\n"), std::string::npos) << page;
  EXPECT_NE(page.find(".TP\n\\fB\\-o\\fR, \\fB\\-\\-output\\fR \\fITEXT\\fR\nwhere it goes\n.br\nRequired.\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find(".TP\n\\fB\\-\\-count\\fR \\fIINT\\fR\nhow many\n.br\nDefault: \\fB3\\fR\n"), std::string::npos)
      << page;
  // Escaped: a leading dot is no request, a backslash prints as one.
  EXPECT_NE(page.find(".TP\n\\fB\\-\\-dry\\-run\\fR\n\\&.starts with a dot, holds a \\e backslash\n.br\nExcludes "
                      "\\fB\\-\\-count\\fR.\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find(".TP\n\\fIFILES\\fR ...\ninputs\n"), std::string::npos) << page;
  EXPECT_EQ(page.find("secret"), std::string::npos);
  EXPECT_EQ(page.find("help"), std::string::npos) << "--help is said once, in tool(8)";
}

TEST(ManPage, ACommandWithoutSubcommandsHasOptions) {
  Tree t;
  const std::string page = pages_of(t.root)["tool-single"];
  EXPECT_NE(page.find(".SH OPTIONS\n.TP\n\\fB\\-\\-name\\fR \\fITEXT\\fR\na name\n.SH EXIT STATUS\n"),
            std::string::npos)
      << page;
  EXPECT_EQ(page.find(".SH COMMANDS"), std::string::npos);
  EXPECT_NE(page.find(".SH SEE ALSO\n.BR tool (8)\n"), std::string::npos);
}

TEST(ManPage, TheRootListsItsCommandsAndOptions) {
  Tree t;
  const std::string page = pages_of(t.root)["tool"];
  EXPECT_NE(page.find(".SH SYNOPSIS\n.B tool\n[\\fIOPTIONS\\fR] \\fICOMMAND\\fR\n"), std::string::npos) << page;
  EXPECT_NE(page.find(".TP\n.BR tool\\-grp (8)\na group of commands\n.TP\n.BR tool\\-single (8)\nruns alone\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("\\fB\\-h\\fR, \\fB\\-\\-help\\fR\n"), std::string::npos) << page;
  EXPECT_NE(page.find("\\fB\\-\\-version\\fR\n"), std::string::npos) << page;
  EXPECT_EQ(page.find("internal"), std::string::npos);
  EXPECT_NE(page.find(".SH SEE ALSO\n.BR tool\\-grp (8),\n.BR tool\\-single (8)\n"), std::string::npos) << page;
}

TEST(ManPage, ExitStatusIsTheExitCodeTable) {
  Tree t;
  for (const auto& [name, page] : pages_of(t.root)) {
    std::string expected = ".SH EXIT STATUS\n";
    for (const ExitCodeMeaning& e : kExitCodeMeanings)
      expected += ".TP\n.B " + std::to_string(e.code) + "\n" + std::string(e.meaning) + "\n";
    EXPECT_NE(page.find(expected), std::string::npos) << name;
  }
}

TEST(ManPage, RoffEscapeOnlyWhatRoffReads) {
  EXPECT_EQ(roff_escape("a-b 'c'"), "a-b 'c'");
  EXPECT_EQ(roff_escape(".x\n'y\nz\\n"), "\\&.x\n\\&'y\nz\\en");
}

// docs/exit-codes.md's table says what kExitCodeMeanings says, row for row.
TEST(ExitCodes, TheDocsTableIsTheTable) {
  const std::string doc = read_file(testing::source_dir() + "/docs/exit-codes.md");
  std::vector<std::string> rows;
  const std::regex row(R"(^\| (\d+) \| (.*) \|$)");
  std::istringstream in(doc);
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_match(line, m, row)) rows.push_back(m[1].str() + " " + m[2].str());
  std::vector<std::string> table;
  for (const ExitCodeMeaning& e : kExitCodeMeanings)
    table.push_back(std::to_string(e.code) + " " + std::string(e.meaning));
  EXPECT_EQ(rows, table);
}

// Completes `words` (the last one is under the cursor) with the script `tool` gets.
std::vector<std::string> complete(const testing::TempDir& dir, const std::vector<std::string>& words) {
  const std::string script = dir.file("tool.bash");
  Tree t;
  write_file_atomic(script, bash_completion(t.root));
  std::string cmd = "cd '" + dir.path() +
                    "' && bash -c 'source \"$0\"; COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); "
                    "_tool; printf \"%s\\n\" \"${COMPREPLY[@]}\"' '" +
                    script + "'";
  for (const std::string& w : words) cmd += " '" + w + "'";
  FILE* p = ::popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  for (size_t n; p && (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  EXPECT_EQ(p ? ::pclose(p) : -1, 0) << cmd;
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(BashCompletion, CommandsThenTheirOptions) {
  testing::TempDir dir;
  using V = std::vector<std::string>;
  EXPECT_EQ(complete(dir, {"tool", ""}), (V{"grp", "single"}));
  EXPECT_EQ(complete(dir, {"tool", "-"}), (V{"--help", "--version", "-h"}));
  EXPECT_EQ(complete(dir, {"tool", "grp", ""}), (V{"leaf"}));
  EXPECT_EQ(complete(dir, {"tool", "grp", "leaf", "--"}), (V{"--count", "--dry-run", "--help", "--output"}));
  EXPECT_EQ(complete(dir, {"tool", "grp", "leaf", "--c"}), (V{"--count"}));
  // A command taking neither subcommands nor arguments offers its options.
  EXPECT_EQ(complete(dir, {"tool", "single", ""}), (V{"--help", "--name", "-h"}));
}

TEST(BashCompletion, AnOptionsValueAndAnArgumentAreFiles) {
  testing::TempDir dir;
  write_file_atomic(dir.file("grp.csv"), "");
  using V = std::vector<std::string>;
  EXPECT_EQ(complete(dir, {"tool", "grp", "leaf", "-o", "gr"}), (V{"grp.csv"}));
  EXPECT_EQ(complete(dir, {"tool", "grp", "leaf", "gr"}), (V{"grp.csv"}));
  // A value that names a command is still a value: `leaf` stays the command.
  EXPECT_EQ(complete(dir, {"tool", "grp", "leaf", "-o", "single", "--n"}), (V{}));
  EXPECT_EQ(complete(dir, {"tool", "grp", "leaf", "-o", "single", "--o"}), (V{"--output"}));
  // A flag takes no value: what follows it is an argument again.
  EXPECT_EQ(complete(dir, {"tool", "grp", "leaf", "--dry-run", "gr"}), (V{"grp.csv"}));
}

}  // namespace
}  // namespace ibburn::app
