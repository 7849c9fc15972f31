#pragma once
// Where tests find the source tree, the build tree and the corpus of real captures. They are
// compiled into one translation unit (test_paths.cpp), so no other test's compile line holds
// an absolute path and a clone in another folder reuses ccache's objects for all the others.
#include <string>

namespace ibburn::testing {

const std::string& source_dir();
const std::string& binary_dir();
// The corpus directory tests/CMakeLists.txt was configured with (corpus.h: the environment
// may point elsewhere).
const std::string& configured_corpus_dir();

}  // namespace ibburn::testing
