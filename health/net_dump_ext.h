#pragma once
// ibdiagnet2.net_dump_ext (ibdiagnet --get_phy_info): one row per port, fields separated by
// ':' under a header row opening with `Ty :` (`Ty`, `#`, `#IB`, `GUID`, `LID`, `Sta`, ...,
// `FEC mode`, `RTR`, `Raw BER`, `Effective BER`, `Symbol BER`, ..., `Node Desc` last, which may
// hold ':' itself). Columns are found by header name. Empty, `N/A` and `NA` mean "no value":
// the real capture (corpus row 20) leaves every BER empty.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ibburn::health {

struct PortPhy {
  uint64_t guid = 0;  // the node's
  int port = 0;       // `#IB`: the port number
  int line = 0;
  std::string fec;  // "RS_FEC_544_514", "MLNX_RS_271_257_PLR"; empty when N/A
  std::optional<double> raw_ber, effective_ber, symbol_ber;
};

struct NetDumpExt {
  std::vector<PortPhy> ports;
  size_t stray_lines = 0;  // lines before the header that are not '#' comments: counted
};

// Throws InputError(origin:line) on a row with fewer fields than the header, a GUID or port
// that is not a number, a BER that is not one, or no header row.
NetDumpExt parse_net_dump_ext(const std::string& text, const std::string& origin);

}  // namespace ibburn::health
