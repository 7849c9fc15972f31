#include "app/man_page.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

#include "app/cli_tree.h"
#include "common/exit_codes.h"

namespace ibburn::app {
namespace {

// Option and command names print `-` as roff's minus sign, so a reader can copy them.
std::string roff_name(const std::string& name) {
  std::string out;
  for (char c : roff_escape(name)) out += c == '-' ? std::string("\\-") : std::string(1, c);
  return out;
}

std::string bold(const std::string& name) { return "\\fB" + roff_name(name) + "\\fR"; }
std::string italic(const std::string& text) { return "\\fI" + roff_escape(text) + "\\fR"; }

bool is_help(const CLI::App& cmd, const CLI::Option* opt) {
  return opt == cmd.get_help_ptr() || opt == cmd.get_help_all_ptr();
}

// As --help marks it: the option takes several values.
std::string many(const CLI::Option& opt) {
  return opt.get_expected_max() >= CLI::detail::expected_max_vector_size ? " ..." : "";
}

std::string type_of(const CLI::Option& opt) {
  return italic(opt.get_type_name().empty() ? "VALUE" : opt.get_type_name()) + many(opt);
}

std::string positional(const CLI::Option& opt) { return italic(opt.get_name(true)) + many(opt); }

std::string heading(const CLI::Option& opt) {
  std::vector<std::string> names;
  for (const std::string& s : opt.get_snames()) names.push_back(bold("-" + s));
  for (const std::string& l : opt.get_lnames()) names.push_back(bold("--" + l));
  if (names.empty()) return positional(opt);
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return takes_value(opt) ? out + " " + type_of(opt) : out;
}

// Needs and excludes are sets of pointers: sorted by name, so the page is the same every build.
std::string names_of(const std::set<CLI::Option*>& options) {
  std::vector<std::string> names;
  for (const CLI::Option* o : options) names.push_back(o->get_name());
  std::sort(names.begin(), names.end());
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + bold(n);
  return out;
}

void write_options(std::ostringstream& out, const CLI::App& cmd, bool with_help) {
  for (const CLI::Option* opt : visible_options(cmd)) {
    if (!with_help && is_help(cmd, opt)) continue;
    out << ".TP\n" << heading(*opt) << "\n" << roff_escape(opt->get_description()) << "\n";
    if (opt->get_required()) out << ".br\nRequired.\n";
    if (!opt->get_default_str().empty()) out << ".br\nDefault: " << bold(opt->get_default_str()) << "\n";
    if (!opt->get_needs().empty()) out << ".br\nNeeds " << names_of(opt->get_needs()) << ".\n";
    if (!opt->get_excludes().empty()) out << ".br\nExcludes " << names_of(opt->get_excludes()) << ".\n";
  }
}

// `ibburn topo check --wiring TEXT [OPTIONS] [FABRIC]`: required options spelled out.
void write_synopsis(std::ostringstream& out, const CLI::App& cmd) {
  out << ".B " << roff_name(command_path(cmd)) << "\n";
  std::string args;
  bool optional = false;
  std::string positionals;
  for (const CLI::Option* opt : visible_options(cmd)) {
    if (is_help(cmd, opt)) continue;
    if (!opt->nonpositional()) {
      positionals += " " + (opt->get_required() ? positional(*opt) : "[" + positional(*opt) + "]");
    } else if (opt->get_required()) {
      args += " " + bold(opt->get_name()) + (takes_value(*opt) ? " " + type_of(*opt) : "");
    } else {
      optional = true;
    }
  }
  if (optional) args += " [" + italic("OPTIONS") + "]";
  if (!visible_subcommands(cmd).empty() && cmd.get_require_subcommand_min() > 0) args += " " + italic("COMMAND");
  args += positionals;
  if (!args.empty()) out << args.substr(1) << "\n";
}

void write_exit_status(std::ostringstream& out) {
  out << ".SH EXIT STATUS\n";
  for (const ExitCodeMeaning& e : kExitCodeMeanings)
    out << ".TP\n.B " << static_cast<int>(e.code) << "\n" << roff_escape(std::string(e.meaning)) << "\n";
}

void write_header(std::ostringstream& out, const std::string& name, const std::string& what,
                  const std::string& version) {
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  out << ".TH " << roff_name(upper) << " 8 \"\" \"" << roff_escape(version) << "\"\n"
      << ".SH NAME\n"
      << roff_name(name) << " \\- " << roff_escape(what) << "\n";
}

// The commands under `top` (itself included) that run, in --help's order.
void collect_runnable(const CLI::App& cmd, std::vector<const CLI::App*>& out) {
  if (runnable(cmd)) out.push_back(&cmd);
  for (const CLI::App* sub : visible_subcommands(cmd)) collect_runnable(*sub, out);
}

// "ibburn-topo": the page of the top-level command `top`.
std::string page_name(const CLI::App& top) { return top.get_parent()->get_name() + "-" + top.get_name(); }

ManPage command_page(const CLI::App& top, const std::string& version) {
  const std::string name = page_name(top);
  std::ostringstream out;
  write_header(out, name, top.get_description(), version);
  std::vector<const CLI::App*> commands;
  collect_runnable(top, commands);
  out << ".SH SYNOPSIS\n";
  for (std::size_t i = 0; i < commands.size(); ++i) {
    if (i > 0) out << ".br\n";
    write_synopsis(out, *commands[i]);
  }
  out << ".SH DESCRIPTION\n" << roff_escape(top.get_description()) << "\n";
  if (commands.size() == 1 && commands[0] == &top) {
    out << ".SH OPTIONS\n";
    write_options(out, top, false);
  } else {
    out << ".SH COMMANDS\n";
    for (const CLI::App* cmd : commands) {
      out << ".SS " << roff_name(command_path(*cmd)) << "\n" << roff_escape(cmd->get_description()) << "\n";
      write_options(out, *cmd, false);
    }
  }
  write_exit_status(out);
  out << ".SH SEE ALSO\n.BR " << roff_name(top.get_parent()->get_name()) << " (8)\n";
  return {name, out.str()};
}

ManPage root_page(const CLI::App& root, const std::string& version) {
  std::ostringstream out;
  write_header(out, root.get_name(), root.get_description(), version);
  out << ".SH SYNOPSIS\n";
  write_synopsis(out, root);
  out << ".SH DESCRIPTION\n"
      << roff_escape(root.get_description()) << "\n.PP\n"
      << "Each command has its own page, " << bold(root.get_name() + "-") << italic("COMMAND")
      << "(8), with every option; every command takes " << bold("-h") << ", " << bold("--help") << ".\n"
      << ".SH COMMANDS\n";
  const std::vector<const CLI::App*> tops = visible_subcommands(root);
  for (const CLI::App* top : tops)
    out << ".TP\n.BR " << roff_name(page_name(*top)) << " (8)\n" << roff_escape(top->get_description()) << "\n";
  out << ".SH OPTIONS\n";
  write_options(out, root, true);
  write_exit_status(out);
  out << ".SH SEE ALSO\n";
  for (std::size_t i = 0; i < tops.size(); ++i)
    out << ".BR " << roff_name(page_name(*tops[i])) << " (8)" << (i + 1 < tops.size() ? ",\n" : "\n");
  return {root.get_name(), out.str()};
}

}  // namespace

std::string roff_escape(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    // A line starting with `.` or `'` would be a request; `\&` is roff's empty character.
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

std::vector<ManPage> man_pages(const CLI::App& root, const std::string& version) {
  std::vector<ManPage> pages{root_page(root, version)};
  for (const CLI::App* top : visible_subcommands(root)) pages.push_back(command_page(*top, version));
  return pages;
}

}  // namespace ibburn::app
