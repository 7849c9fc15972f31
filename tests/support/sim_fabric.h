#pragma once
// A simulated InfiniBand fabric for tests: ibsim on a netfile with a private
// IBSIM_SOCKNAME and a console pipe, optionally opensm (private OSM_CACHE_DIR), readiness
// checked by asking the fabric, and commands run under umad2sim. Everything is torn down
// in the destructor, also when a test fails. Safe to use from tests running in parallel.
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace ibburn::testing {

struct SimOptions {
  bool opensm = true;          // start opensm and wait for LIDs (needed for PerfMgt)
  std::string sim_host;        // SIM_HOST for commands run by default (empty: first node)
  std::chrono::seconds start_timeout{60};
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
  CommandResult run(const std::vector<std::string>& argv,
                    std::chrono::seconds timeout = std::chrono::seconds(60),
                    const std::map<std::string, std::string>& extra_env = {}) const;

  // Sends one ibsim console command (e.g. `Unlink "sw1"[3]`) and waits until it took effect.
  void console(const std::string& command);

  // Re-runs the SM sweep and waits until LIDs/routes are settled again (after link changes).
  void resweep();

  // Environment a child process needs to reach this fabric (IBSIM_SOCKNAME, LD_PRELOAD...).
  std::map<std::string, std::string> env() const;
  const std::string& sockname() const { return sockname_; }
  const std::string& workdir() const { return workdir_; }

 private:
  std::string sockname_;
  std::string workdir_;
  SimOptions options_;
  int ibsim_pid_ = -1;
  int opensm_pid_ = -1;
  int console_fd_ = -1;
};

}  // namespace ibburn::testing
