#pragma once
// The real ibdiagnet2 capture of the corpus (SOURCES.md rows 18-23), read once per test.
#include <string>

#include "common/file_io.h"
#include "tests/support/corpus.h"

namespace ibburn::health::testing {

inline std::string capture_path(const std::string& file) {
  return ibburn::testing::corpus_path("ibdiagnet/qm9700-ndr-sequoia-2025-gary-minghuili/" + file);
}

inline std::string read_capture(const std::string& file) { return read_file(capture_path(file)); }

}  // namespace ibburn::health::testing
