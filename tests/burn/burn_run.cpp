#include "burn_run.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace burntest {

std::string ibburn_path() { return std::string(IBBURN_BINARY_DIR) + "/ibburn"; }

std::string skip_reason() {
  if (access(ibburn_path().c_str(), X_OK) != 0) return "build/ibburn is not built";
  if (std::system("command -v mpirun >/dev/null 2>&1") != 0) return "mpirun not installed";
  return "";
}

std::string make_temp_dir() {
  std::string tmpl = "/tmp/ibburn-burn-test-XXXXXX";
  if (!mkdtemp(tmpl.data())) return "";
  return tmpl;
}

Launch start_mpirun(int np, const std::string& rank_command, const std::string& dir,
                    const std::vector<std::string>& mpi_args, int limit_s) {
  Launch l;
  l.log = dir + "/mpirun.log";
  std::vector<std::string> args{"timeout", "-k", "5", std::to_string(limit_s), "mpirun", "--oversubscribe",
                                "-np", std::to_string(np)};
  args.insert(args.end(), mpi_args.begin(), mpi_args.end());
  args.insert(args.end(), {"sh", "-c", rank_command});
  l.pid = fork();
  if (l.pid == 0) {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
    setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 1);
    FILE* f = std::freopen(l.log.c_str(), "w", stdout);
    (void)f;
    dup2(STDOUT_FILENO, STDERR_FILENO);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  return l;
}

int wait_mpirun(const Launch& l) {
  int status = 0;
  waitpid(l.pid, &status, 0);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + WTERMSIG(status);
}

int run_burn(int np, const std::string& burn_args, const std::string& dir, const std::vector<std::string>& mpi_args) {
  return wait_mpirun(start_mpirun(np, "exec " + ibburn_path() + " burn --out " + dir + " " + burn_args, dir, mpi_args));
}

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
