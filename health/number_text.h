#pragma once
// The whole of `s` as a number (hex digits for base 16, a decimal fraction for floating
// types), or absent: the vendor files' readers share it.
#include <charconv>
#include <optional>
#include <string_view>
#include <type_traits>

namespace ibburn::health {

template <typename T>
std::optional<T> parse_number(std::string_view s, int base = 10) {
  T out{};
  std::from_chars_result r;
  if constexpr (std::is_floating_point_v<T>)
    r = std::from_chars(s.data(), s.data() + s.size(), out);
  else
    r = std::from_chars(s.data(), s.data() + s.size(), out, base);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return out;
}

}  // namespace ibburn::health
