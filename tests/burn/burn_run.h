#pragma once
// The one fixture of the tests that run `mpirun ... build/ibburn burn` as a subprocess.
#include <gtest/gtest.h>
#include <sys/types.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/temp_dir.h"

namespace burntest {

std::string ibburn_path();
// Empty when the end-to-end tests can run, else why not (for GTEST_SKIP).
std::string skip_reason();

struct Launch {
  pid_t pid = -1;  // of `timeout`, which passes a signal on to mpirun and its process group
};

// Skips when build/ibburn or mpirun is missing. Each test gets one directory, dir_: the
// burn's --out, mpirun.log, and the TMPDIR of mpirun and its ranks (Open MPI keeps its
// session directories there, also after a killed rank). A launch the test did not wait for
// (a failed ASSERT) is stopped, then the directory is removed, when the test ends.
class MpiRunTest : public ::testing::Test {
 protected:
  ~MpiRunTest() override;
  void SetUp() override;

  // Starts `timeout -k 5 <limit> mpirun --oversubscribe -np N [mpi_args] sh -c <rank_command>`
  // (a shell snippet per rank, so a test can record each rank's pid), output in mpirun.log.
  Launch start_mpirun(int np, const std::string& rank_command, const std::vector<std::string>& mpi_args = {},
                      int limit_s = 120);
  // Waits for the launch to end; returns its exit status (or 128 + signal).
  int wait_mpirun(const Launch& l);
  // Both at once for the simple cases: the burn arguments follow `ibburn burn --out dir_`.
  int run_burn(int np, const std::string& burn_args, const std::vector<std::string>& mpi_args = {});
  // mpirun's stdout and stderr so far.
  std::string log() const;

  ibburn::testing::TempDir tmp_;
  const std::string dir_ = tmp_.path();

 private:
  std::vector<pid_t> running_;
};

std::string read_text(const std::string& path);
std::vector<nlohmann::json> read_jsonl(const std::string& path);
nlohmann::json read_json(const std::string& path);
// Waits (bounded) until path exists and pred(text) holds.
bool wait_for_file(const std::string& path, int timeout_ms, bool (*pred)(const std::string&) = nullptr);
pid_t read_pid(const std::string& path);

}  // namespace burntest
