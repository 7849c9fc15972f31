#pragma once
// Exit codes shared by every ibburn command. kExitCodeMeanings is their one description: the
// man pages' EXIT STATUS is generated from it, and a test holds docs/exit-codes.md's table to it.
#include <array>
#include <string_view>

namespace ibburn {
enum ExitCode : int { kExitOk = 0, kExitFindings = 1, kExitInput = 2, kExitEnvironment = 3, kExitInterrupted = 130 };

struct ExitCodeMeaning {
  ExitCode code;
  std::string_view meaning;
};
inline constexpr std::array<ExitCodeMeaning, 5> kExitCodeMeanings{{
    {kExitOk, "ran, and everything checked passed (no finding of severity warning or worse)"},
    {kExitFindings,
     "ran, and found problems: findings, slow or failed flows, suspect cables, hosts refused by the burn's "
     "preflight (also when every host was refused and nothing ran). Results were written."},
    {kExitInput, "usage error or malformed input; the message names `file:line` and the reason"},
    {kExitEnvironment, "could not run: no fabric or HCA reachable, MPI or permission failure"},
    {kExitInterrupted, "interrupted (Ctrl-C / SIGTERM); partial results measured so far were written first"},
}};
}  // namespace ibburn
