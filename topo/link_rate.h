#pragma once
// InfiniBand link width and speed, including the extended speeds (FDR..XDR) that
// rdma-core 44's helpers do not decode. Pure data, no I/O.
#include <cstdint>
#include <optional>
#include <string>

namespace ibburn::topo {

enum class Width : uint8_t { Unknown = 0, X1, X2, X4, X8, X12 };
enum class Speed : uint8_t { Unknown = 0, SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR };

int lanes(Width w);              // 0 for Unknown
double lane_data_gbps(Speed s);  // data rate per lane after encoding, e.g. 25 for EDR

struct LinkRate {
  Width width = Width::Unknown;
  Speed speed = Speed::Unknown;
  bool known() const { return width != Width::Unknown && speed != Speed::Unknown; }
  double data_gbps() const { return lanes(width) * lane_data_gbps(speed); }  // 4xNDR = 400
  bool operator==(const LinkRate&) const = default;
};

std::string to_string(Width w);     // "4x"
std::string to_string(Speed s);     // "NDR"
std::string to_string(LinkRate r);  // "4xNDR", "?" parts for unknown
// Accepts "4xNDR", "4X NDR", "NDR200"-free forms like "2xNDR"; case-insensitive.
std::optional<LinkRate> parse_link_rate(const std::string& text);
std::optional<Width> parse_width(const std::string& text);  // "4x", "4X", "4"
std::optional<Speed> parse_speed(const std::string& text);  // "NDR", "FDR10"

// PortInfo encodings (IBA 1.5 / 1.7, vol 1, 14.2.5.6).
Width width_from_portinfo(uint8_t link_width_active);  // 1,2,4,8,16 bit flags
// speed_active (LinkSpeedActive), ext (LinkSpeedExtActive), ext2 (LinkSpeedExt2Active,
// XDR), fdr10 (Mellanox ext port info: 1 when FDR10 is active).
Speed speed_from_portinfo(uint8_t speed_active, uint8_t ext_active, uint8_t ext2_active, bool fdr10);

}  // namespace ibburn::topo
