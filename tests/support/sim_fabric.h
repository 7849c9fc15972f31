#pragma once
// A simulated InfiniBand fabric for tests: ibsim on a netfile with a private
// IBSIM_SOCKNAME and a console pipe, optionally opensm (private OSM_CACHE_DIR), readiness
// checked by asking the fabric, and commands run under umad2sim. Everything is torn down
// in the destructor, also when a test fails. Safe to use from tests running in parallel.
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace ibburn::testing {

struct SimOptions {
  bool opensm = true;    // start opensm and wait for LIDs (needed for PerfMgt)
  std::string sim_host;  // SIM_HOST for commands run by default (empty: first node)
  std::chrono::seconds start_timeout{60};
  // ibsim table sizes (-N/-S/-P); 0 = computed from the netfile with headroom.
  int max_nodes = 0;
  int max_switches = 0;
  int max_ports = 0;
  bool keep_workdir = false;  // leave logs behind for debugging
  // Extra opensm arguments, e.g. {"-R", "ftree"}: the default minhop engine leaves all but
  // one of several parallel cables between two switches without routes.
  std::vector<std::string> opensm_args;
};

struct CommandResult {
  int exit_code = -1;
  std::string out;  // stdout
  std::string err;  // stderr
};

class SimFabric {
 public:
  // Starts ibsim on `netfile` (ibnetdiscover text). Throws std::runtime_error with the
  // simulator's log when it does not come up.
  explicit SimFabric(const std::string& netfile, SimOptions options = {});
  ~SimFabric();
  SimFabric(const SimFabric&) = delete;
  SimFabric& operator=(const SimFabric&) = delete;

  // Skips the current gtest when ibsim/opensm are not installed.
  static bool available();

  // Runs `argv` under LD_PRELOAD=libumad2sim.so with this fabric's IBSIM_SOCKNAME (and
  // SIM_HOST when set), capturing output; kills it after `timeout`.
  CommandResult run(const std::vector<std::string>& argv, std::chrono::seconds timeout = std::chrono::seconds(60),
                    const std::map<std::string, std::string>& extra_env = {}) const;

  // Sends one ibsim console command (e.g. `Unlink "sw1"[3]`) and waits until it took effect
  // (ibsim printed its next prompt). Returns ibsim's reply; throws when ibsim reports an
  // error (unknown node/port, unknown command).
  std::string console(const std::string& command);
  // ibsim's console as a named pipe, for a command under test that writes to it itself.
  std::string console_path() const { return workdir() + "/console"; }

  // Re-runs the SM sweep and waits until LIDs/routes are settled again (after link changes).
  void resweep();
  // Kills opensm, as an SM that dies mid-run: ibsim keeps the LIDs and forwarding tables it
  // set, so traffic and PerfMgt go on; only the SM's own MADs (SMInfo) go unanswered.
  void kill_sm();

  // Environment a child process needs to reach this fabric (IBSIM_SOCKNAME, LD_PRELOAD...),
  // and a TMPDIR inside the work directory.
  std::map<std::string, std::string> env() const;
  const std::string& sockname() const { return sockname_; }
  // Working directory of commands run(); also holds the logs (removed by the destructor).
  const std::string& workdir() const { return workdir_.path(); }
  std::string ibsim_log() const;    // console output and warnings
  std::string console_log() const;  // console output only
  std::string opensm_log() const;

 private:
  void start(const std::string& netfile);
  void stop();
  bool sm_ready() const;
  void wait_for_sm(std::chrono::steady_clock::time_point deadline);

  SimOptions options_;
  std::string sockname_;
  TempDir workdir_;
  int ibsim_pid_ = -1;
  int opensm_pid_ = -1;
  int console_fd_ = -1;
  size_t prompts_seen_ = 0;  // ibsim prompts already answered
};

}  // namespace ibburn::testing
