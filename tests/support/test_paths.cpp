#include "tests/support/test_paths.h"

namespace ibburn::testing {

const std::string& source_dir() {
  static const std::string dir = IBBURN_SOURCE_DIR;
  return dir;
}

const std::string& binary_dir() {
  static const std::string dir = IBBURN_BINARY_DIR;
  return dir;
}

const std::string& configured_corpus_dir() {
  static const std::string dir = IBBURN_CORPUS_DIR;
  return dir;
}

}  // namespace ibburn::testing
