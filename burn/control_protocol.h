#pragma once
// The burn's control protocol: every message rank 0 and the ranks exchange, one struct each,
// with its JSON form. The control channel (burn/control_channel.h) carries them as one JSON
// object per line, {"type": "<name>", ...fields}.
//
// Sequence (rank 0 runs the coordinator and, in a thread, a worker of its own):
//   start-up (MPI broadcast, not the channel): rank 0 -> all   Boot {port, addresses, token}
//                                                               or {error, code}: every rank exits
//   each rank connects to rank 0's channel (directly, or through its host's relay, which
//   prefixes each line with the rank: burn/control_channel.h):
//                                               rank -> 0       Hello {rank, token, endpoint,
//                                                               host_check?, error?}
//       A Hello with `error` means the rank could not start its transport: rank 0 counts it
//       lost at once, the rank waits for Done. A rank with no Hello within --timeout is lost.
//   per stage, to the ranks that have a flow in it:
//                                               0 -> rank       Setup {stage, flows}
//                                               rank -> 0       Addresses {stage, addrs, failures, environment,
//                                                               port_counters}
//                                               0 -> rank       Connect {stage, peers, reasons}
//                                               rank -> 0       Connected {stage, failures}
//                                               0 -> rank       Start {stage, duration_ms}
//                                               rank -> 0       Sample {stage, seconds, sides}, every second
//                                               rank -> 0       Report {stage, sides, port_counters}, at the end
//       A rank keeps the stage's connections until its next Setup or Done: rank 0 sends those only
//       once it has every Report of the stage, so no end is destroyed while its peer still drains.
//   after the last stage (or when no rank can run): 0 -> all   Done
// Flows whose address a rank could not produce are failed by rank 0 (the reason goes to both
// ends in Connect.reasons) and the other flows go on.
// Lost rank: a channel that closes (EOF, reset: the process died) or a rank that misses a
// reply's deadline is lost for the rest of the run; rank 0 writes a `rank_lost` event to
// results.jsonl and fails only the flows it takes part in. A rank that loses rank 0 exits 3.
// Ctrl-C / SIGTERM on rank 0: it writes the summary from the samples first, sends Stop
// {stage} to the ranks still running, waits at most a second for their Reports, then sends
// Done. A rank interrupted itself stops its stage, reports and exits 130.
// Every message from the ranks carries `stage`; rank 0 ignores those of another stage.
//
// Reading: message_from_json() refuses an unknown type or a missing / mistyped field with a
// ProtocolError naming the message type and the field ("control message \"setup\": field
// \"flows[0].src\": missing"); the channel closes on it.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "burn/results.h"
#include "common/finding.h"
#include "common/json_fields.h"

namespace ibburn::burn {

class ProtocolError : public TransportError {
 public:
  using TransportError::TransportError;
};

// Per flow id: an address blob (hex), or a failure reason naming the rank.
using FlowTexts = std::map<std::uint32_t, std::string>;

// Rank 0's start-up facts, broadcast over MPI: where the channel listens, or why nothing runs.
struct Boot {
  std::uint16_t port = 0;
  std::vector<std::string> addresses;  // rank 0's IPv4 addresses, loopback last
  std::string token;                   // ranks present it in their Hello
  std::optional<std::string> error;    // set: the run cannot start; every rank exits with code
  int code = 0;
};

// One host's preflight (host/host_check.h): broadcast over MPI to the ranks of the host, and
// sent to rank 0 in the Hello of the host's first rank.
struct HostCheckAnswer {
  bool ok = true;                    // no error-or-worse finding and no error
  std::optional<std::string> error;  // the check itself could not run
  std::vector<Finding> findings;
  nlohmann::json pairing = nlohmann::json::array();  // host::to_json(HostReport)["pairing"], as is
};

// Reads a host check strictly (the summary keeps one per host, in the same shape).
HostCheckAnswer read_host_check(const JsonFields& f);

struct Hello {
  int rank = 0;
  std::string token;
  EndpointInfo endpoint;
  std::optional<HostCheckAnswer> host_check;  // from the first rank of each host
  std::optional<std::string> error;           // the rank could not start its transport
};

struct FlowSetup {
  std::uint32_t id = 0;  // index in the stage's flows
  int src = 0;
  int dst = 0;
  bool bidirectional = false;
  int streams = 1;
};

struct Setup {
  int stage = 0;                 // 1-based
  std::vector<FlowSetup> flows;  // the flows this rank is an end of
};

struct Addresses {
  int stage = 0;
  FlowTexts addrs;     // flow -> this end's address blob in hex
  FlowTexts failures;  // flow -> why this end could not be created
  // The failures that are this host's, not the fabric's (EnvironmentError: memory it cannot
  // pin, a port not ACTIVE): a run where every flow failed so exits 3, not 1.
  std::vector<std::uint32_t> environment;
  PortCounterValues port_counters;  // this rank's port before the stage (Transport::port_counters)
};

struct Connect {
  int stage = 0;
  FlowTexts peers;    // flow -> the peer's address blob in hex
  FlowTexts reasons;  // flow -> why it will not run (the peer failed set-up)
};

struct Connected {
  int stage = 0;
  FlowTexts failures;  // flow -> why connecting failed
};

struct Start {
  int stage = 0;
  long long duration_ms = 0;
};

struct SampleSide {
  std::uint32_t flow = 0;
  int from = 0;
  int to = 0;
  bool rx = false;
  std::uint64_t bytes = 0;  // since the stage started
  double gbps = 0;          // over the last second
};

struct Sample {
  int stage = 0;
  double seconds = 0;  // since the stage started
  std::vector<SampleSide> sides;
};

struct Report {
  int stage = 0;
  std::vector<SideReport> sides;
  PortCounterValues port_counters;  // this rank's port after the stage
};

struct Stop {
  int stage = 0;
};

struct Done {};

using Message = std::variant<Hello, Setup, Addresses, Connect, Connected, Start, Sample, Report, Stop, Done>;

// The message's "type" ("hello", "setup", ...).
const char* message_type(const Message& m);

// JSON forms. from_json throws ProtocolError naming the message type and the field; the
// to_json of a message includes its "type".
void to_json(nlohmann::json& j, const Boot& m);
void from_json(const nlohmann::json& j, Boot& m);
void to_json(nlohmann::json& j, const HostCheckAnswer& m);
void from_json(const nlohmann::json& j, HostCheckAnswer& m);
void to_json(nlohmann::json& j, const Hello& m);
void from_json(const nlohmann::json& j, Hello& m);
void to_json(nlohmann::json& j, const Setup& m);
void from_json(const nlohmann::json& j, Setup& m);
void to_json(nlohmann::json& j, const Addresses& m);
void from_json(const nlohmann::json& j, Addresses& m);
void to_json(nlohmann::json& j, const Connect& m);
void from_json(const nlohmann::json& j, Connect& m);
void to_json(nlohmann::json& j, const Connected& m);
void from_json(const nlohmann::json& j, Connected& m);
void to_json(nlohmann::json& j, const Start& m);
void from_json(const nlohmann::json& j, Start& m);
void to_json(nlohmann::json& j, const Sample& m);
void from_json(const nlohmann::json& j, Sample& m);
void to_json(nlohmann::json& j, const Report& m);
void from_json(const nlohmann::json& j, Report& m);
void to_json(nlohmann::json& j, const Stop& m);
void from_json(const nlohmann::json& j, Stop& m);
void to_json(nlohmann::json& j, const Done& m);
void from_json(const nlohmann::json& j, Done& m);
void to_json(nlohmann::json& j, const Message& m);
// Dispatches on "type"; an unknown or missing type is a ProtocolError too.
Message message_from_json(const nlohmann::json& j);

// Stage of a message from a rank (Addresses .. Report); nullopt for the others.
std::optional<int> stage_of(const Message& m);

}  // namespace ibburn::burn
