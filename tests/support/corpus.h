#pragma once
// The real captures in ../shared/corpus are not part of the repository: tests that read
// them skip, naming the directory, where it is absent. IBBURN_CORPUS_DIR (CMake cache
// variable, or the environment at test time) points elsewhere.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/support/test_paths.h"

namespace ibburn::testing {

inline std::string corpus_dir() {
  const char* over = std::getenv("IBBURN_CORPUS_DIR");
  return over && *over ? over : configured_corpus_dir();
}

// A file in the corpus, by its path relative to the corpus directory.
inline std::string corpus_path(const std::string& rel) { return corpus_dir() + "/" + rel; }

// Why corpus tests cannot run here; empty when they can.
inline std::string corpus_missing() {
  const std::string dir = corpus_dir();
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec)) return "";
  return "corpus directory " + dir + " is absent (set IBBURN_CORPUS_DIR to its location)";
}

// A fixture for suites whose every test reads the corpus.
class CorpusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (auto why = corpus_missing(); !why.empty()) GTEST_SKIP() << why;
  }
};

}  // namespace ibburn::testing

// For a test in a suite that also has tests without the corpus.
#define IBBURN_SKIP_WITHOUT_CORPUS()                                                          \
  do {                                                                                        \
    if (auto why_ = ::ibburn::testing::corpus_missing(); !why_.empty()) GTEST_SKIP() << why_; \
  } while (0)
