// libFuzzer target for the ibnetdiscover text parsers (plain, ibdiagnet2, --ports).
// Besides crashes and sanitizer reports it checks a property: whatever parses can be
// written, and the written text reads back to a fabric that writes the same text again.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/error.h"
#include "topo/fabric_io.h"
#include "topo/ibnetdiscover_text.h"

using namespace ibburn;
using namespace ibburn::topo;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Fabric parsed;
  try {
    parsed = parse_ibnetdiscover_text(text, "fuzz-input");
  } catch (const InputError&) {
    return 0;  // rejecting malformed input is the expected outcome
  }
  std::string written;
  try {
    written = to_ibnetdiscover_text(parsed);
  } catch (const Error&) {
    return 0;  // e.g. two nodes with one GUID: not representable as text
  }
  Fabric reread = parse_ibnetdiscover_text(written, "rewritten");  // must not throw
  if (to_ibnetdiscover_text(reread) != written) __builtin_trap();
  return 0;
}
