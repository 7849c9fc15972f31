// libFuzzer target for the JSON snapshot reader: no crash or sanitizer report on any input,
// and whatever loads writes a snapshot that loads and writes the same text again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/error.h"
#include "topo/fabric_io.h"
#include "topo/snapshot_json.h"

using namespace ibburn;
using namespace ibburn::topo;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Fabric parsed;
  try {
    parsed = parse_snapshot_json(text, "fuzz-input");
  } catch (const InputError&) {
    return 0;
  }
  std::string written = to_json_text(parsed);
  Fabric reread = parse_snapshot_json(written, "rewritten");  // must not throw
  if (to_json_text(reread) != written) __builtin_trap();
  return 0;
}
