#pragma once
// The TCP transport's message header and the checks the receiver applies to it. Pure, so the
// validation is unit-tested without sockets.
#include <cstdint>
#include <string>

namespace ibburn::burn::tcp {

inline constexpr std::uint32_t kMagic = 0x49424252;       // "IBBR"
inline constexpr std::uint32_t kHelloMagic = 0x4942484c;  // "IBHL": first bytes of a stream

struct Header {
  std::uint32_t magic = kMagic;
  std::uint32_t stage = 0;
  std::uint32_t flow = 0;
  std::uint32_t length = 0;  // payload bytes that follow
  std::uint64_t seq = 0;     // per stream, from 0
  std::uint32_t stream = 0;
  std::uint32_t reserved = 0;
};
static_assert(sizeof(Header) == 32);

// What the receiver expects next on one stream.
struct Expectation {
  std::uint32_t stage = 0;
  std::uint32_t flow = 0;
  std::uint32_t stream = 0;
  std::uint32_t max_length = 0;
  std::uint64_t seq = 0;
};

// "" when the header is the one expected, else the reason (for the flow's error).
std::string check_header(const Header& h, const Expectation& e);

}  // namespace ibburn::burn::tcp
