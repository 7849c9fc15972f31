#include "topo/link_rate.h"

#include <algorithm>
#include <cctype>

namespace ibburn::topo {

int lanes(Width w) {
  switch (w) {
    case Width::X1: return 1;
    case Width::X2: return 2;
    case Width::X4: return 4;
    case Width::X8: return 8;
    case Width::X12: return 12;
    default: return 0;
  }
}

double lane_data_gbps(Speed s) {
  switch (s) {
    case Speed::SDR: return 2.0;  // 8b/10b
    case Speed::DDR: return 4.0;
    case Speed::QDR: return 8.0;
    case Speed::FDR10: return 10.0;  // 64b/66b
    case Speed::FDR: return 13.64;
    case Speed::EDR: return 25.0;
    case Speed::HDR: return 50.0;
    case Speed::NDR: return 100.0;
    case Speed::XDR: return 200.0;
    default: return 0;
  }
}

std::string to_string(Width w) {
  int n = lanes(w);
  return n ? std::to_string(n) + "x" : "?x";
}

std::string to_string(Speed s) {
  switch (s) {
    case Speed::SDR: return "SDR";
    case Speed::DDR: return "DDR";
    case Speed::QDR: return "QDR";
    case Speed::FDR10: return "FDR10";
    case Speed::FDR: return "FDR";
    case Speed::EDR: return "EDR";
    case Speed::HDR: return "HDR";
    case Speed::NDR: return "NDR";
    case Speed::XDR: return "XDR";
    default: return "?";
  }
}

std::string to_string(LinkRate r) { return to_string(r.width) + to_string(r.speed); }

static std::string upper_trim(const std::string& t) {
  std::string u;
  for (char c : t)
    if (!std::isspace(static_cast<unsigned char>(c)))
      u += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return u;
}

std::optional<Width> parse_width(const std::string& text) {
  std::string u = upper_trim(text);
  if (!u.empty() && u.back() == 'X') u.pop_back();
  if (u == "1") return Width::X1;
  if (u == "2") return Width::X2;
  if (u == "4") return Width::X4;
  if (u == "8") return Width::X8;
  if (u == "12") return Width::X12;
  return std::nullopt;
}

std::optional<Speed> parse_speed(const std::string& text) {
  std::string u = upper_trim(text);
  static const std::pair<const char*, Speed> names[] = {
      {"SDR", Speed::SDR}, {"DDR", Speed::DDR}, {"QDR", Speed::QDR}, {"FDR10", Speed::FDR10}, {"FDR", Speed::FDR},
      {"EDR", Speed::EDR}, {"HDR", Speed::HDR}, {"NDR", Speed::NDR}, {"XDR", Speed::XDR}};
  for (auto& [n, s] : names)
    if (u == n) return s;
  return std::nullopt;
}

std::optional<LinkRate> parse_link_rate(const std::string& text) {
  std::string u = upper_trim(text);
  auto x = u.find('X');
  if (x == std::string::npos || x == 0) return std::nullopt;
  auto w = parse_width(u.substr(0, x));
  auto s = parse_speed(u.substr(x + 1));
  if (!w || !s) return std::nullopt;
  return LinkRate{*w, *s};
}

Width width_from_portinfo(uint8_t v) {
  switch (v) {
    case 1: return Width::X1;
    case 2: return Width::X4;
    case 4: return Width::X8;
    case 8: return Width::X12;
    case 16: return Width::X2;
    default: return Width::Unknown;
  }
}

Speed speed_from_portinfo(uint8_t speed_active, uint8_t ext_active, uint8_t ext2_active, bool fdr10) {
  // Extended speeds take precedence when set (IBA: LinkSpeedExtActive != 0 overrides).
  if (ext2_active & 0x1) return Speed::XDR;
  switch (ext_active) {
    case 1: return Speed::FDR;
    case 2: return Speed::EDR;
    case 4: return Speed::HDR;
    case 8: return Speed::NDR;
    case 16: return Speed::XDR;
    default: break;
  }
  if (fdr10) return Speed::FDR10;
  switch (speed_active) {
    case 1: return Speed::SDR;
    case 2: return Speed::DDR;
    case 4: return Speed::QDR;
    default: return Speed::Unknown;
  }
}

}  // namespace ibburn::topo
