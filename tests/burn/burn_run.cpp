#include "burn_run.h"

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "tests/support/test_paths.h"

namespace burntest {

std::string ibburn_path() { return ibburn::testing::binary_dir() + "/ibburn"; }

std::string skip_reason() {
  if (access(ibburn_path().c_str(), X_OK) != 0) return "build/ibburn is not built";
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) return "mpirun not installed";
  return "";
}

MpiRunTest::~MpiRunTest() {
  for (pid_t pid : running_) {
    kill(pid, SIGTERM);  // timeout passes it on to mpirun, and kills it 5 s later if need be
    waitpid(pid, nullptr, 0);
  }
}

void MpiRunTest::SetUp() {
  if (auto why = skip_reason(); !why.empty()) GTEST_SKIP() << why;
}

Launch MpiRunTest::start_mpirun(int np, const std::string& rank_command, const std::vector<std::string>& mpi_args,
                                int limit_s) {
  const std::string log_path = dir_ + "/mpirun.log";
  const std::string tmpdir = tmp_.tmpdir();
  std::vector<std::string> args{
      "timeout", "-k", "5", std::to_string(limit_s), "mpirun", "--oversubscribe", "-np", std::to_string(np)};
  args.insert(args.end(), mpi_args.begin(), mpi_args.end());
  args.insert(args.end(), {"sh", "-c", rank_command});
  Launch l;
  l.pid = fork();
  if (l.pid == 0) {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
    setenv("TMPDIR", tmpdir.c_str(), 1);
    FILE* f = std::freopen(log_path.c_str(), "w", stdout);
    (void)f;
    dup2(STDOUT_FILENO, STDERR_FILENO);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  if (l.pid > 0) running_.push_back(l.pid);
  return l;
}

int MpiRunTest::wait_mpirun(const Launch& l) {
  int status = 0;
  waitpid(l.pid, &status, 0);
  running_.erase(std::remove(running_.begin(), running_.end(), l.pid), running_.end());
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

int MpiRunTest::run_burn(int np, const std::string& burn_args, const std::vector<std::string>& mpi_args) {
  return wait_mpirun(start_mpirun(np, "exec " + ibburn_path() + " burn --out " + dir_ + " " + burn_args, mpi_args));
}

std::string MpiRunTest::log() const { return read_text(dir_ + "/mpirun.log"); }

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<nlohmann::json> read_jsonl(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

nlohmann::json read_json(const std::string& path) { return nlohmann::json::parse(read_text(path)); }

bool wait_for_file(const std::string& path, int timeout_ms, bool (*pred)(const std::string&)) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    struct stat st {};
    if (stat(path.c_str(), &st) == 0 && (!pred || pred(read_text(path)))) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

pid_t read_pid(const std::string& path) {
  std::ifstream in(path);
  pid_t p = -1;
  in >> p;
  return p;
}

}  // namespace burntest
