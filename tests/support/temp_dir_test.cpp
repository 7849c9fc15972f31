// The tests' temporary directory: where it is made, that it goes with everything in it,
// and the debugging switches.
#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>

namespace ibburn::testing {
namespace {
namespace fs = std::filesystem;

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(TempDir, IsFreshUnderTheBuildTreeAndNamedAfterTheTest) {
  TempDir a, b;
  EXPECT_NE(a.path(), b.path());
  EXPECT_TRUE(fs::is_directory(a.path()));
  EXPECT_TRUE(fs::is_empty(a.path()));
  EXPECT_EQ(a.path().rfind(ibburn::testing::binary_dir() + "/test-tmp/TempDir.IsFreshUnder", 0), 0u) << a.path();
  EXPECT_EQ(a.file("x.json"), a.path() + "/x.json");
}

TEST(TempDir, GoesWithEverythingInIt) {
  std::string path;
  {
    TempDir t;
    path = t.path();
    fs::create_directories(t.file("a/b/c"));
    std::ofstream(t.file("a/b/c/f")) << "x";
    fs::create_symlink("/nonexistent", t.file("a/dangling"));
    std::ofstream(t.tmpdir() + "/child-file") << "y";
  }
  EXPECT_FALSE(fs::exists(path));
}

TEST(TempDir, TmpdirIsShortStableAndGoesWithIt) {
  std::string tmp;
  {
    TempDir t;
    tmp = t.tmpdir();
    EXPECT_TRUE(fs::is_directory(tmp));
    EXPECT_EQ(t.tmpdir(), tmp);  // a second call keeps what is there
    // Room for Open MPI's session directory and socket names within sun_path (108 bytes).
    EXPECT_LE(tmp.size(), 48u) << tmp;
    if (t.file("tmp").size() <= 48) {
      EXPECT_EQ(tmp, t.file("tmp"));
    }
    std::ofstream(tmp + "/child-file") << "y";
  }
  EXPECT_FALSE(fs::exists(tmp));
}

TEST(TempDir, MovedFromRemovesNothing) {
  std::string path;
  {
    TempDir outer;
    {
      TempDir inner(std::move(outer));
      path = inner.path();
      // The moved-from state is what this test pins.
      EXPECT_TRUE(outer.path().empty());  // NOLINT(bugprone-use-after-move)
    }
    EXPECT_FALSE(fs::exists(path));
  }
}

TEST(TempDir, KeptForDebuggingByCallOrEnvironment) {
  TempDir holder("holder");  // cleans up what this test keeps
  ScopedEnv base("IBBURN_TEST_TMP", holder.path());
  std::string by_call, by_env;
  {
    TempDir t("kept");
    by_call = t.path();
    t.keep();
  }
  {
    ScopedEnv keep("IBBURN_KEEP_TEST_TMP", "1");
    TempDir t;
    by_env = t.path();
  }
  EXPECT_EQ(fs::path(by_call).parent_path(), holder.path());
  EXPECT_EQ(fs::path(by_call).filename().string().rfind("kept-", 0), 0u) << by_call;
  EXPECT_TRUE(fs::is_directory(by_call));
  EXPECT_TRUE(fs::is_directory(by_env));
  {
    ScopedEnv no_keep("IBBURN_KEEP_TEST_TMP", "0");
    TempDir t;
    by_env = t.path();
  }
  EXPECT_FALSE(fs::exists(by_env));
}

}  // namespace
}  // namespace ibburn::testing
