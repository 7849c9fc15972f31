#include "app/bash_completion.h"

#include <sstream>

#include "app/cli_tree.h"

namespace ibburn::app {
namespace {

// The command's path below the root, as the script keys its table: "" or "topo show".
std::string key_of(const CLI::App& cmd) {
  const std::string path = command_path(cmd);
  const std::size_t space = path.find(' ');
  return space == std::string::npos ? "" : path.substr(space + 1);
}

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

void write_table(std::ostringstream& out, const CLI::App& cmd) {
  std::vector<std::string> commands, options, valued;
  bool arguments = false;
  for (const CLI::App* sub : visible_subcommands(cmd)) commands.push_back(sub->get_name());
  for (const CLI::Option* opt : visible_options(cmd)) {
    arguments = arguments || !opt->nonpositional();
    std::vector<std::string> names;
    for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
    for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
    options.insert(options.end(), names.begin(), names.end());
    if (takes_value(*opt)) valued.insert(valued.end(), names.begin(), names.end());
  }
  const std::string key = key_of(cmd);
  auto arm = [&](const char* kind, const std::string& words) {
    if (!words.empty()) out << "    \"" << kind << ":" << key << "\") echo \"" << words << "\" ;;\n";
  };
  arm("commands", join(commands));
  arm("options", join(options));
  arm("valued", join(valued));
  arm("arguments", arguments ? "yes" : "");
  for (const CLI::App* sub : visible_subcommands(cmd)) write_table(out, *sub);
}

}  // namespace

std::string bash_completion(const CLI::App& root) {
  std::ostringstream table;
  write_table(table, root);
  // The script's fixed part; @ROOT@ is the root's name.
  std::string script =
      R"script(# bash completion for @ROOT@, written from its option declarations at build time: do not edit.

# _@ROOT@_words KIND PATH: the subcommands (commands), the options, the options taking a value
# (valued) of the command PATH ("" for @ROOT@ itself, else e.g. "topo show"), or `yes`
# (arguments) when it takes arguments.
_@ROOT@_words() {
  case "$1:$2" in
@TABLE@  esac
}

_@ROOT@() {
  local cur=${COMP_WORDS[COMP_CWORD]} path="" word i value=0 commands
  # The words before the cursor name the command; an option's value is skipped, so that a
  # file called `run` is not read as the command.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if ((value)); then
      value=0
    elif [[ " $(_@ROOT@_words valued "$path") " == *" $word "* ]]; then
      value=1
    elif [[ " $(_@ROOT@_words commands "$path") " == *" $word "* ]]; then
      path=${path:+$path }$word
    fi
  done
  commands=$(_@ROOT@_words commands "$path")
  COMPREPLY=()
  if [[ $cur == -* ]] || { ((!value)) && [[ -z $commands$(_@ROOT@_words arguments "$path") ]]; }; then
    mapfile -t COMPREPLY < <(compgen -W "$(_@ROOT@_words options "$path")" -- "$cur")
  elif ((value)) || [[ -n $(_@ROOT@_words arguments "$path") ]]; then
    # An option's value or an argument: a file (arguments may also be a subcommand).
    mapfile -t COMPREPLY < <( ((value)) || compgen -W "$commands" -- "$cur"; compgen -f -- "$cur")
    compopt -o filenames 2>/dev/null || true  # fails only when called outside a completion
  else
    mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
  fi
}
complete -F _@ROOT@ @ROOT@
)script";
  auto replace_all = [&script](const std::string& from, const std::string& to) {
    for (std::size_t at = script.find(from); at != std::string::npos; at = script.find(from, at + to.size()))
      script.replace(at, from.size(), to);
  };
  replace_all("@TABLE@", table.str());
  replace_all("@ROOT@", root.get_name());
  return script;
}

}  // namespace ibburn::app
