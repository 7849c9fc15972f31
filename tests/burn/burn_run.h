#pragma once
// Runs `mpirun ... build/ibburn burn ...` as a subprocess for the end-to-end tests.
#include <sys/types.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace burntest {

std::string ibburn_path();
// Empty when the end-to-end tests can run, else why not (for GTEST_SKIP).
std::string skip_reason();
std::string make_temp_dir();

struct Launch {
  pid_t pid = -1;
  std::string log;  // stdout+stderr of mpirun
};
// Starts `timeout -k 5 <limit> mpirun --oversubscribe -np N [mpi_args] <command...>` where
// command is a shell snippet (run per rank under `sh -c`) so a test can record each rank's pid.
Launch start_mpirun(int np, const std::string& rank_command, const std::string& dir,
                    const std::vector<std::string>& mpi_args = {}, int limit_s = 120);
// Waits for the launch to end; returns its exit status (or 128 + signal).
int wait_mpirun(const Launch& l);
// Both at once for the simple cases: the burn arguments follow `ibburn burn --out DIR`.
int run_burn(int np, const std::string& burn_args, const std::string& dir,
             const std::vector<std::string>& mpi_args = {});

std::string read_text(const std::string& path);
std::vector<nlohmann::json> read_jsonl(const std::string& path);
nlohmann::json read_json(const std::string& path);
// Waits (bounded) until path exists and pred(text) holds.
bool wait_for_file(const std::string& path, int timeout_ms, bool (*pred)(const std::string&) = nullptr);
pid_t read_pid(const std::string& path);

}  // namespace burntest
