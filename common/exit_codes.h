#pragma once
// Exit codes shared by every ibburn command (documented in docs/exit-codes.md).
namespace ibburn {
enum ExitCode : int {
  kExitOk = 0,            // ran, and everything checked passed
  kExitFindings = 1,      // ran, and found problems (findings, slow or failed flows)
  kExitInput = 2,         // usage error or malformed input (file:line named)
  kExitEnvironment = 3,   // could not run: no fabric, no device, MPI or permission failure
  kExitInterrupted = 130  // Ctrl-C / SIGTERM; partial results were written first
};
}  // namespace ibburn
