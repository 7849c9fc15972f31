#include "burn/tcp_wire.h"

#include <fmt/format.h>

namespace ibburn::burn::tcp {

std::string check_header(const Header& h, const Expectation& e) {
  if (h.magic != kMagic) return fmt::format("bad magic 0x{:08x} (corrupt or misframed stream)", h.magic);
  if (h.stage != e.stage) return fmt::format("message of stage {} during stage {}", h.stage, e.stage);
  if (h.flow != e.flow) return fmt::format("message of flow {} on flow {}", h.flow, e.flow);
  if (h.stream != e.stream) return fmt::format("message of stream {} on stream {}", h.stream, e.stream);
  if (h.length == 0 || h.length > e.max_length)
    return fmt::format("message length {} outside 1..{}", h.length, e.max_length);
  if (h.seq != e.seq) return fmt::format("sequence {} where {} was expected", h.seq, e.seq);
  return "";
}

}  // namespace ibburn::burn::tcp
