#pragma once
// The tests' one temporary directory: a fresh directory under the build tree (never /tmp,
// so even a test killed by its timeout leaves nothing there), removed with everything in it
// by the destructor, also when the test fails or throws. Child processes get a private
// TMPDIR inside it (tmpdir()), so what they leave behind (Open MPI session directories,
// browser profiles) goes with it.
//
// Set IBBURN_KEEP_TEST_TMP=1 to keep every directory for debugging (each kept path is
// printed); IBBURN_TEST_TMP=DIR puts them under DIR instead of <build>/test-tmp.
#include <string>

namespace ibburn::testing {

class TempDir {
 public:
  // The directory is named after the running gtest (or `tag` outside one), for debugging.
  explicit TempDir(const std::string& tag = "");
  ~TempDir();
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&&) = delete;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  // path()/name, for the files a test writes.
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  // A directory for child processes' TMPDIR, created on first use: path()/tmp, or a short
  // directory in /tmp (removed with this one) when that path is too long for Unix sockets.
  std::string tmpdir() const;
  // Leave this directory behind (printed at destruction) to look at after a failure.
  void keep() { keep_ = true; }

 private:
  static constexpr size_t kMaxTmpdirLength = 48;
  std::string path_;
  mutable std::string tmpdir_;  // made by tmpdir() on first use
  bool keep_ = false;
};

}  // namespace ibburn::testing
