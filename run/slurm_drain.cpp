#include "run/slurm_drain.h"

#include <spawn.h>
#include <sys/wait.h>

#include <ostream>
#include <string>

extern char** environ;

namespace ibburn::run {
namespace {

// No shell: the reason is one argument whatever it contains.
int run_command(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return 127;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace

int slurm_drain(const std::vector<DrainEntry>& hosts, std::ostream& err) {
  int failed = 0;
  for (const auto& h : hosts) {
    // Slurm shows the reason in sinfo -R: keep it short and on one line.
    std::string reason = "ibburn: " + h.reason;
    if (reason.size() > 200) reason = reason.substr(0, 197) + "...";
    const int rc = run_command({"scontrol", "update", "NodeName=" + h.host, "State=DRAIN", "Reason=" + reason});
    if (rc == 0) {
      err << "run: drained " << h.host << " in Slurm\n";
    } else {
      ++failed;
      err << "ibburn: scontrol update NodeName=" << h.host << " State=DRAIN failed (exit " << rc << ")\n";
    }
  }
  return failed;
}

}  // namespace ibburn::run
