#include "tests/support/temp_dir.h"
#include "tests/support/test_paths.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <stdexcept>

namespace ibburn::testing {
namespace fs = std::filesystem;

namespace {

bool env_set(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::strcmp(v, "0") != 0;
}

std::string base_dir() {
  const char* over = std::getenv("IBBURN_TEST_TMP");
  return over && *over ? over : binary_dir() + "/test-tmp";
}

// "Suite.Name" of the running test, reduced to characters safe in a path and kept short:
// Open MPI puts its Unix sockets under the TMPDIR we give it, and sun_path holds 108 bytes.
std::string name_for(const std::string& tag) {
  std::string name = tag;
  if (name.empty()) {
    const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
    name = t ? std::string(t->test_suite_name()) + "." + t->name() : "test";
  }
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '_';
  return name.substr(0, 40);
}

}  // namespace

TempDir::TempDir(const std::string& tag) {
  const std::string base = base_dir();
  std::error_code ec;
  fs::create_directories(base, ec);
  std::string tmpl = base + "/" + name_for(tag) + "-XXXXXX";
  if (!::mkdtemp(tmpl.data())) throw std::runtime_error("TempDir: cannot create " + tmpl + ": " + std::strerror(errno));
  path_ = tmpl;
  keep_ = env_set("IBBURN_KEEP_TEST_TMP");
}

TempDir::TempDir(TempDir&& other) noexcept
    : path_(std::move(other.path_)), tmpdir_(std::move(other.tmpdir_)), keep_(other.keep_) {
  other.path_.clear();
  other.tmpdir_.clear();
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  if (keep_) {
    std::cerr << "[kept " << path_ << "]\n";
    return;
  }
  std::error_code ec;
  if (!tmpdir_.empty()) fs::remove_all(tmpdir_, ec);
  fs::remove_all(path_, ec);
}

std::string TempDir::tmpdir() const {
  if (!tmpdir_.empty()) return tmpdir_;
  // Open MPI's Unix sockets live under TMPDIR and sun_path holds 108 bytes: in a deep checkout
  // the children get a short directory in /tmp instead, removed with this one.
  std::string dir = path_ + "/tmp";
  if (dir.size() > kMaxTmpdirLength) {
    std::string tmpl = "/tmp/ibburn-test-XXXXXX";
    if (!::mkdtemp(tmpl.data()))
      throw std::runtime_error("TempDir: cannot create " + tmpl + ": " + std::strerror(errno));
    dir = tmpl;
  } else {
    ::mkdir(dir.c_str(), 0700);
  }
  tmpdir_ = dir;
  return dir;
}

}  // namespace ibburn::testing
