#include "tests/support/slurm_cluster.h"
#include "tests/support/test_paths.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <sys/wait.h>

namespace ibburn::testing {
namespace {

const std::string kHarness = ibburn::testing::source_dir() + "/scripts/slurm-cluster";

// Runs `command` through sh: its exit code, stdout and stderr together in `out`.
int run_shell(const std::string& command, std::string& out) {
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (!p) return -1;
  std::array<char, 4096> buf{};
  for (size_t n; (n = std::fread(buf.data(), 1, buf.size(), p)) > 0;) out.append(buf.data(), n);
  const int status = ::pclose(p);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string shell_quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

SlurmCluster::SlurmCluster(std::vector<std::string> nodes) : nodes_(std::move(nodes)) {
  // munged's socket path must fit in sun_path: the short TMPDIR, not the test's own path.
  dir_ = tmp_.tmpdir() + "/slurm";
  std::string cmd = "bash " + shell_quoted(kHarness) + " start " + shell_quoted(dir_);
  for (const auto& n : nodes_) cmd += " " + shell_quoted(n);
  std::string out;
  const int rc = run_shell(cmd, out);
  if (rc == 0) {
    started_ = true;
    return;
  }
  unavailable_ =
      rc == 77 ? out
               : "the Slurm daemons did not start (scripts/slurm-cluster exit " + std::to_string(rc) + "):\n" + out;
  // What did start is stopped by the harness itself on failure; stop again to be sure.
  std::string ignored;
  run_shell("bash " + shell_quoted(kHarness) + " stop " + shell_quoted(dir_), ignored);
}

SlurmCluster::~SlurmCluster() {
  if (!started_) return;
  std::string ignored;
  run_shell("bash " + shell_quoted(kHarness) + " stop " + shell_quoted(dir_), ignored);
}

void SlurmCluster::restart_controller() const {
  std::string out;
  if (run_shell("bash " + shell_quoted(kHarness) + " restart " + shell_quoted(dir_), out) != 0)
    throw std::runtime_error("slurmctld did not come back: " + out);
}

std::string SlurmCluster::shell(const std::string& command) const {
  std::string out;
  run_shell("SLURM_CONF=" + shell_quoted(conf()) + " " + command, out);
  return out;
}

std::vector<std::string> SlurmCluster::drained() const {
  std::vector<std::string> lines;
  std::istringstream in(shell("sinfo -R -h -N -o '%N|%E'"));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::string SlurmCluster::logs() const {
  std::string all;
  for (const auto& e : std::filesystem::directory_iterator(dir_ + "/log")) {
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    if (text.size() > 4000) text = "..." + text.substr(text.size() - 4000);
    all += "== " + e.path().filename().string() + "\n" + text + "\n";
  }
  return all;
}

}  // namespace ibburn::testing
