// The simulated-fabric fixture: ibsim (+ opensm) in private process groups and a private
// work directory, driven through a console pipe that is never closed (ibsim spins on EOF).
#include "tests/support/sim_fabric.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace ibburn::testing {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

const char* const kUmad2sim = "/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so";
// ibsim's defaults (ibsim 0.10): sizes below these need no -N/-S/-P.
constexpr int kDefaultNodes = 2048, kDefaultSwitches = 256, kDefaultPorts = 13312;

bool executable_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  dirs += ":/usr/sbin:/sbin";
  std::stringstream ss(dirs);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (!dir.empty() && ::access((dir + "/" + name).c_str(), X_OK) == 0) return true;
  }
  return false;
}

std::string unique_tag() {
  static std::atomic<int> counter{0};
  std::random_device rd;
  std::ostringstream os;
  os << ::getpid() << "-" << counter++ << "-" << std::hex << (rd() & 0xffffff);
  return os.str();
}

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

size_t count_occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

// Node and port counts of an ibnetdiscover-style netfile, to size ibsim's tables.
struct NetSize {
  int nodes = 0, switches = 0, ports = 0;
};
NetSize measure_netfile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("sim fabric: cannot read netfile " + path);
  static const std::regex header(R"(^\s*(Switch|Hca|Ca|Rt)\s+(\d+)\s)");
  NetSize size;
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_search(line, m, header)) continue;
    ++size.nodes;
    if (m[1] == "Switch") ++size.switches;
    size.ports += std::stoi(m[2]) + 1;  // + port 0
  }
  return size;
}

extern "C" char** environ;

// The current environment with `overrides` applied, as execve wants it.
std::vector<std::string> merged_environment(const std::map<std::string, std::string>& overrides) {
  std::map<std::string, std::string> all;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    size_t eq = kv.find('=');
    if (eq != std::string::npos) all[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const auto& [k, v] : overrides) all[k] = v;
  std::vector<std::string> out;
  for (const auto& [k, v] : all) out.push_back(k + "=" + v);
  return out;
}

// fork + exec in a new process group with stdin/stdout/stderr on the given fds
// (-1 = /dev/null). Everything the child needs is prepared before fork.
int spawn(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env, const std::string& cwd,
          int in_fd, int out_fd, int err_fd) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_strings = merged_environment(env);
  std::vector<char*> envp;
  for (auto& kv : env_strings) envp.push_back(kv.data());
  envp.push_back(nullptr);
  int devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("sim fabric: fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::setpgid(0, 0);
    ::dup2(in_fd >= 0 ? in_fd : devnull, 0);
    ::dup2(out_fd >= 0 ? out_fd : devnull, 1);
    ::dup2(err_fd >= 0 ? err_fd : devnull, 2);
    for (int fd = 3; fd < 1024; ++fd) ::close(fd);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(126);
    ::execvpe(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  ::close(devnull);
  ::setpgid(pid, pid);  // also from the parent, so a kill right after spawn finds the group
  return pid;
}

// The simulator and the SM hold no state worth a graceful exit (opensm takes seconds to
// honour SIGTERM): kill the whole group at once.
void kill_group(int pid) {
  if (pid <= 0) return;
  ::kill(-pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

bool alive(int pid) {
  int status;
  return pid > 0 && ::waitpid(pid, &status, WNOHANG) == 0;
}

}  // namespace

bool SimFabric::available() {
  return executable_in_path("ibsim") && executable_in_path("opensm") && ::access(kUmad2sim, R_OK) == 0;
}

SimFabric::SimFabric(const std::string& netfile, SimOptions options)
    : options_(std::move(options)), sockname_("ibburn-sim-" + unique_tag()) {
  ::signal(SIGPIPE, SIG_IGN);  // a dead ibsim must fail console(), not kill the test
  if (options_.keep_workdir) workdir_.keep();
  try {
    start(netfile);
  } catch (...) {
    stop();
    throw;
  }
}

SimFabric::~SimFabric() { stop(); }

void SimFabric::stop() {
  kill_group(opensm_pid_);
  opensm_pid_ = -1;
  kill_group(ibsim_pid_);
  ibsim_pid_ = -1;
  if (console_fd_ >= 0) ::close(console_fd_);
  console_fd_ = -1;
}

// stdout carries the console prompts and replies; stderr the simulator's warnings.
std::string SimFabric::ibsim_log() const {
  return read_text(workdir() + "/ibsim.out") + read_text(workdir() + "/ibsim.err");
}
std::string SimFabric::console_log() const { return read_text(workdir() + "/ibsim.out"); }
std::string SimFabric::opensm_log() const { return read_text(workdir() + "/osm/opensm.log"); }

void SimFabric::start(const std::string& netfile) {
  const std::string net_copy = workdir() + "/net";
  fs::copy_file(netfile, net_copy);
  NetSize size = measure_netfile(net_copy);

  std::vector<std::string> argv{"ibsim", "-s"};
  auto add_size = [&argv](const char* flag, int need, int dflt) {
    if (need > dflt) {
      argv.push_back(flag);
      argv.push_back(std::to_string(need));
    }
  };
  // Headroom for Link/ReLink commands; ibsim only reserves tables of these sizes.
  add_size("-N", std::max(options_.max_nodes, size.nodes + 16), kDefaultNodes);
  add_size("-S", std::max(options_.max_switches, size.switches + 8), kDefaultSwitches);
  add_size("-P", std::max(options_.max_ports, size.ports + 256), kDefaultPorts);
  argv.push_back(net_copy);

  // A named pipe, so a command under test can write console lines too (`ibburn run
  // --sim-console`); ibsim holds it open read-write and never sees EOF.
  if (::mkfifo(console_path().c_str(), 0600) != 0) throw std::runtime_error("sim fabric: mkfifo failed");
  const int ibsim_in = ::open(console_path().c_str(), O_RDWR | O_CLOEXEC);
  if (ibsim_in < 0) throw std::runtime_error("sim fabric: cannot open the console pipe");
  const int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
  int out_fd = ::open((workdir() + "/ibsim.out").c_str(), flags, 0644);
  int err_fd = ::open((workdir() + "/ibsim.err").c_str(), flags, 0644);
  const std::map<std::string, std::string> ibsim_env{{"IBSIM_SOCKNAME", sockname_}, {"TMPDIR", workdir_.tmpdir()}};
  ibsim_pid_ = spawn(argv, ibsim_env, workdir(), ibsim_in, out_fd, err_fd);
  ::close(out_fd);
  ::close(err_fd);
  console_fd_ = ::open(console_path().c_str(), O_WRONLY | O_CLOEXEC);
  ::close(ibsim_in);

  const auto deadline = Clock::now() + options_.start_timeout;
  while (count_occurrences(console_log(), "sim> ") == 0) {
    if (!alive(ibsim_pid_)) {
      ibsim_pid_ = -1;
      throw std::runtime_error("sim fabric: ibsim exited:\n" + ibsim_log());
    }
    if (Clock::now() > deadline) throw std::runtime_error("sim fabric: ibsim did not start:\n" + ibsim_log());
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  prompts_seen_ = count_occurrences(console_log(), "sim> ");

  if (!options_.opensm) return;
  fs::create_directories(workdir() + "/osm");
  std::map<std::string, std::string> osm_env = env();
  osm_env["OSM_CACHE_DIR"] = workdir() + "/osm";
  osm_env["OSM_TMP_DIR"] = workdir() + "/osm";
  // -d2 flushes the log after each message, so sweeps can be counted (resweep()).
  // --sweep 0: sweeps happen at start, on traps from ibsim and on SIGHUP, never mid-test.
  int osm_out = ::open((workdir() + "/osm/opensm.out").c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  std::vector<std::string> osm_argv = {"opensm", "-d2", "--sweep", "0", "-f", workdir() + "/osm/opensm.log"};
  osm_argv.insert(osm_argv.end(), options_.opensm_args.begin(), options_.opensm_args.end());
  opensm_pid_ = spawn(osm_argv, osm_env, workdir(), -1, osm_out, osm_out);
  ::close(osm_out);
  wait_for_sm(deadline);
}

bool SimFabric::sm_ready() const {
  CommandResult sm = run({"sminfo"}, std::chrono::seconds(10));
  if (sm.exit_code != 0 || sm.out.find("SMINFO_MASTER") == std::string::npos) return false;
  // The local port turns Active only at the end of the SM's sweep, after LIDs are set.
  CommandResult pi = run({"smpquery", "-D", "portinfo", "0"}, std::chrono::seconds(10));
  return pi.exit_code == 0 && std::regex_search(pi.out, std::regex(R"(LinkState:\.*Active)"));
}

void SimFabric::wait_for_sm(Clock::time_point deadline) {
  while (!sm_ready()) {
    if (!alive(opensm_pid_)) {
      opensm_pid_ = -1;
      throw std::runtime_error("sim fabric: opensm exited:\n" + read_text(workdir() + "/osm/opensm.out") +
                               opensm_log());
    }
    if (Clock::now() > deadline)
      throw std::runtime_error("sim fabric: SM not master/port not active in time:\n" + opensm_log());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

std::map<std::string, std::string> SimFabric::env() const {
  std::map<std::string, std::string> e{
      {"IBSIM_SOCKNAME", sockname_}, {"LD_PRELOAD", kUmad2sim}, {"TMPDIR", workdir_.tmpdir()}};
  if (!options_.sim_host.empty()) e["SIM_HOST"] = options_.sim_host;
  return e;
}

CommandResult SimFabric::run(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                             const std::map<std::string, std::string>& extra_env) const {
  if (argv.empty()) throw std::invalid_argument("sim fabric: empty command");
  std::map<std::string, std::string> e = env();
  for (const auto& [k, v] : extra_env) e[k] = v;
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("sim fabric: pipe failed");
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    throw std::runtime_error("sim fabric: pipe failed");
  }
  // umad2sim creates ./sys-<pid> in the working directory: keep that in ours.
  int pid = spawn(argv, e, workdir(), -1, out[1], err[1]);
  ::close(out[1]);
  ::close(err[1]);

  CommandResult result;
  const auto deadline = Clock::now() + timeout;
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  bool timed_out = false;
  char buf[65536];
  while (open_fds > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    int n = ::poll(fds, 2, static_cast<int>(std::min<long long>(left, 1000)));
    if (n < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t r = ::read(fds[i].fd, buf, sizeof buf);
      if (r > 0) {
        sinks[i]->append(buf, static_cast<size_t>(r));
      } else if (r == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  if (timed_out) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    result.exit_code = 124;
    result.err += "\n[sim fabric: killed after " + std::to_string(timeout.count()) + " s]\n";
    return result;
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::kill(-pid, SIGKILL);  // anything the command left behind in its group
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string SimFabric::console(const std::string& command) {
  if (command.find('\n') != std::string::npos) throw std::invalid_argument("sim fabric: one console command at a time");
  const std::string line = command + "\n";
  // Lines other writers sent (through console_path()) were answered meanwhile.
  prompts_seen_ = std::max(prompts_seen_, count_occurrences(console_log(), "sim> "));
  if (::write(console_fd_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    throw std::runtime_error("sim fabric: cannot write to ibsim console");
  // ibsim handles console lines one at a time and prints a new prompt after each: the
  // command has taken effect once the prompt count has grown by one.
  const auto deadline = Clock::now() + std::chrono::seconds(30);
  std::string log;
  while (true) {
    log = console_log();
    if (count_occurrences(log, "sim> ") > prompts_seen_) break;
    if (!alive(ibsim_pid_)) throw std::runtime_error("sim fabric: ibsim died:\n" + log);
    if (Clock::now() > deadline) throw std::runtime_error("sim fabric: no reply to console command " + command);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // The reply is what ibsim printed between the previous prompt and this one.
  size_t start = 0;
  for (size_t i = 0; i < prompts_seen_; ++i) start = log.find("sim> ", start) + 5;
  const size_t end = log.find("sim> ", start);
  ++prompts_seen_;
  std::string reply = log.substr(start, end == std::string::npos ? std::string::npos : end - start);
  // Whole words only: replies name counters such as SymbolErrorCounter or PortRcvErrors.
  static const std::regex failure(R"(\b(unknown|not found|can't|cannot|bad|failed|error)\b)", std::regex::icase);
  if (std::regex_search(reply, failure) && command.rfind("Error", 0) != 0)
    throw std::runtime_error("sim fabric: console command `" + command + "` failed: " + reply);
  return reply;
}

void SimFabric::resweep() {
  if (opensm_pid_ <= 0) throw std::logic_error("sim fabric: resweep() needs SimOptions::opensm");
  const size_t before = count_occurrences(opensm_log(), "SUBNET UP");
  ::kill(opensm_pid_, SIGHUP);  // opensm: SIGHUP = re-read config and heavy sweep
  const auto deadline = Clock::now() + options_.start_timeout;
  while (count_occurrences(opensm_log(), "SUBNET UP") <= before) {
    if (!alive(opensm_pid_)) throw std::runtime_error("sim fabric: opensm died:\n" + opensm_log());
    if (Clock::now() > deadline) throw std::runtime_error("sim fabric: no sweep after SIGHUP:\n" + opensm_log());
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  wait_for_sm(deadline);
}

void SimFabric::kill_sm() {
  if (opensm_pid_ <= 0) throw std::logic_error("sim fabric: kill_sm() needs SimOptions::opensm");
  kill_group(opensm_pid_);
  opensm_pid_ = -1;
}

}  // namespace ibburn::testing
