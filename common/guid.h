#pragma once
// A node or port GUID, written one way everywhere ibburn writes one (files, messages, names):
// "0x" and 16 lower-case hex digits, as ibnetdiscover and opensm print them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace ibburn {

struct Guid {
  uint64_t value = 0;

  // "0x0002c90300000001".
  std::string text() const;
  // The 16 digits without "0x" (ibsim's and the sim's node ids: "S-0002c90300000001").
  std::string digits() const;
  // 1..16 hex digits, with or without "0x"/"0X"; nullopt for anything else.
  static std::optional<Guid> parse(std::string_view text);

  bool operator==(const Guid&) const = default;
};

}  // namespace ibburn

// fmt::format("{}", Guid{g}) writes Guid::text().
template <>
struct fmt::formatter<ibburn::Guid> : fmt::formatter<std::string_view> {
  template <typename FormatContext>
  auto format(const ibburn::Guid& g, FormatContext& ctx) const {
    return fmt::formatter<std::string_view>::format(g.text(), ctx);
  }
};
