#pragma once
// The physical layer's error rates per port (ibdiagnet2.net_dump_ext, mlxlink --json), judged
// per cable: both ends of one cable are one finding. Limits and where they come from are in
// docs/health.md ("Physical layer"). One cause, one finding: when most ports with a reading
// are over (at least half, and at least 8), one finding tells the cause instead. Pure logic.
#include <optional>
#include <string>
#include <vector>

#include "common/finding.h"

namespace ibburn::health {

struct PortBer {
  PortRef port;
  std::optional<PortRef> peer;  // the cable's other end, when the capture's LINKS name it
  std::string fec;              // the FEC mode, for the message; may be empty
  std::optional<double> raw_ber, effective_ber, symbol_ber;
};

struct BerLimits {
  // Post-FEC: the IBTA's link BER objective, ibdiagnet's default --ber_thresh. Error.
  double effective_max = 1e-12;
  // Pre-FEC: IEEE 802.3's limit for the RS(544,514) "KP4" FEC of 50G-per-lane PAM4 links
  // (NDR's RS_FEC_544_514), past which the FEC no longer holds its post-FEC target. Warning.
  double raw_max = 2.4e-4;
  double most_share = 0.5;
  size_t most_min = 8;
};

// `ber_high` per cable (error when its effective or symbol BER is over effective_max, warning
// when only its raw BER is over raw_max), ports both ends; or one `ports_ber_high` when most are.
std::vector<Finding> check_ber(const std::vector<PortBer>& ports, const BerLimits& limits = {});

}  // namespace ibburn::health
