#pragma once
// What this binary is and what it was built with, for --version and the man pages' footer.
// kBuildInfo is written at every build (cmake/BuildInfo.cmake, from app/build_info_values.cpp.in),
// not at configure time, so a binary built after a commit never names the commit before it.
#include <string>

namespace ibburn::app {

struct BuildInfo {
  const char* version;  // project(VERSION) in CMakeLists.txt
  const char* commit;   // `git describe --always --dirty` of the source tree; "unknown" outside git
  const char* verbs;    // the libibverbs version built against (always: the build requires it)
  const char* cuda;     // the CUDA toolkit's version; "" when built without CUDA (IBBURN_HAVE_CUDA)
};
extern const BuildInfo kBuildInfo;

// `ibburn --version`: the version, the commit, and what the build holds.
std::string version_text(const BuildInfo& info);

}  // namespace ibburn::app
