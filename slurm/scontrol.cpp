#include "slurm/scontrol.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <ostream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/file_io.h"

extern char** environ;

namespace ibburn::slurm {
namespace {

// No shell: the reason is one argument whatever it contains. `out`, when given, gets stdout.
int run_command(std::vector<std::string> args, std::string* out = nullptr) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int fds[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  ::posix_spawn_file_actions_init(&actions);
  if (out) {
    if (::pipe(fds) != 0) return 127;
    ::posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    ::posix_spawn_file_actions_addclose(&actions, fds[0]);
  }
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&actions);
  if (out) {
    ::close(fds[1]);
    char buf[65536];
    for (ssize_t n; spawned == 0 && ((n = ::read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR));)
      if (n > 0) out->append(buf, static_cast<size_t>(n));
    ::close(fds[0]);
  }
  if (spawned != 0) return 127;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

SlurmJob read_slurm_job() {
  const char* list = std::getenv("SLURM_JOB_NODELIST");
  if (!list || !*list)
    throw EnvironmentError("--allocation slurm: SLURM_JOB_NODELIST is not set (not inside a Slurm job)");
  SlurmJob job;
  std::string text;
  if (const int rc = run_command({"scontrol", "show", "hostnames", list}, &text); rc != 0)
    throw EnvironmentError(fmt::format("--allocation slurm: scontrol show hostnames {} failed (exit {})", list, rc));
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);)
    if (!l.empty()) job.allocated.push_back(l);
  job.nodes = read_slurm_nodes("--allocation slurm");
  return job;
}

std::vector<SlurmNode> read_slurm_nodes(const std::string& what) {
  std::string text;
  if (const int rc = run_command({"scontrol", "show", "node", "--oneliner"}, &text); rc != 0)
    throw EnvironmentError(fmt::format("{}: scontrol show node failed (exit {})", what, rc));
  return parse_scontrol_nodes(text);
}

int apply_slurm_actions(const SlurmOptions& options, const std::vector<Drain>& drain,
                        const std::vector<std::string>& passed, const std::string& log_path, std::ostream& err) {
  const auto node_map = options.node_map.empty() ? std::map<std::string, std::string>{}
                                                 : parse_slurm_node_map(read_file(options.node_map), options.node_map);
  if (drain.empty() && passed.empty()) return 0;
  std::vector<SlurmNode> nodes;
  try {
    nodes = read_slurm_nodes("ibburn");
  } catch (const EnvironmentError& e) {
    err << e.what() << ": nobody drained or resumed in Slurm\n";
    return 1;
  }
  std::ofstream log;
  if (!log_path.empty()) log.open(log_path, std::ios::app);
  int failed = 0;
  for (const auto& a : plan_slurm_actions(options, drain, passed, nodes, node_map)) {
    int rc = 0;
    switch (a.kind) {
      case SlurmActionKind::Drain:
        rc = run_command({"scontrol", "update", "NodeName=" + a.node, "State=DRAIN", "Reason=" + a.reason});
        err << (rc == 0
                    ? fmt::format("run: drained {} in Slurm\n", a.node)
                    : fmt::format("ibburn: scontrol update NodeName={} State=DRAIN failed (exit {})\n", a.node, rc));
        break;
      case SlurmActionKind::Resume:
        rc = run_command({"scontrol", "update", "NodeName=" + a.node, "State=RESUME"});
        err << (rc == 0
                    ? fmt::format("run: resumed {} in Slurm (it passed; ibburn had drained it)\n", a.node)
                    : fmt::format("ibburn: scontrol update NodeName={} State=RESUME failed (exit {})\n", a.node, rc));
        break;
      case SlurmActionKind::Kept:
        err << fmt::format("run: {} left as it is in Slurm: drained by someone else (\"{}\")\n", a.node, a.reason);
        break;
      case SlurmActionKind::Unresolved:
        err << fmt::format("ibburn: host {} has no Slurm node, left alone: {}\n", a.host, a.reason);
        break;
    }
    if (rc != 0) ++failed;
    nlohmann::json line = {{"time", utc_now()}, {"action", to_string(a.kind)}, {"host", a.host},
                           {"node", a.node},    {"reason", a.reason},          {"exit", rc}};
    if (log.is_open()) log << line.dump() << "\n";
  }
  return failed;
}

}  // namespace ibburn::slurm
