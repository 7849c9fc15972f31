#pragma once
// The burn engine's transport interface. The engine (MPI ranks, stages, sampling, verdicts)
// knows nothing about sockets or verbs: it asks a Transport for one Connection per flow end,
// ships each connection's address blob to the peer out of band (the engine's control
// channel), connects, starts, samples the counters every second and stops. TCP
// (burn/tcp_transport.cpp) and RDMA WRITE (burn/verbs/) implement it.
//
// Life of a connection (all calls from the engine's thread; every call is bounded):
//   t.create(spec)             -> allocate buffers, listen / create QPs
//   c.local_address()          -> blob for the peer (opaque to the engine)
//   c.connect(peer_blob, dl)   -> TCP connect/accept, or QP RTR/RTS; throws TransportError
//   c.start()                  -> worker threads begin moving data (returns at once)
//   c.counters()               -> any time, from any thread; monotonic
//   c.stop()                   -> ask workers to finish (returns at once)
//   c.wait(deadline)           -> join workers; false when they did not finish in time
//   c.error()                  -> first error seen, with a reason naming the cause
// Destroying a connection must never block longer than a few hundred milliseconds, even
// when the peer is dead or hung.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "burn/port_counters.h"
#include "burn/transport_kind.h"

namespace ibburn::burn {

using Clock = std::chrono::steady_clock;
using AddressBlob = std::vector<std::uint8_t>;

// What a rank's endpoint is, gathered by rank 0 before stage 1 and written to the results.
struct EndpointInfo {
  std::string host;             // hostname of the rank
  std::string endpoint;         // "mlx5_0:1", "eth0", "10.0.0.1": what the rank is bound to
  std::string address;          // the address the transport listens on / sends from, if any
  std::uint64_t port_guid = 0;  // IB only, 0 otherwise
  std::uint16_t lid = 0;        // IB only
  std::string link_layer;       // "InfiniBand", "Ethernet", "" when unknown
  double rate_gbps = 0;         // the port's data rate; 0 when unknown
  int gpu = -1;                 // GPU whose memory the rank sends from, -1 = host memory
};

// Options given to make_transport(); each transport reads what it understands.
struct TransportOptions {
  std::string bind;     // tcp: an IPv4 address or an interface name; verbs: "dev:port"
                        // empty = the default for this rank (see local_rank)
  int local_rank = 0;   // rank among those on this host: with no bind, the verbs
                        // transport takes default_port() (rank_binding.h), tcp loopback
  int local_ranks = 1;  // ranks on this host
  int rank = 0;         // for the rank's binding line
  // verbs: the host check's GPU-HCA pairing as (GPU PCI address, HCA), in GPU address order:
  // the default binding. Empty when the host check did not run.
  std::vector<std::pair<std::string, std::string>> hca_by_gpu;
  int gpu = -1;  // verbs: GPU memory (-1 = host memory, or the paired GPU below)
  // verbs: HCA name -> PCI address of its GPU (the host check's pairing); with gpu < 0 the
  // transport sends from its HCA's GPU when CUDA sees it. Empty = host memory.
  std::map<std::string, std::string> gpu_by_hca;
  std::size_t message_size = 0;              // 0 = the transport's default
  bool verify = false;                       // fill patterned buffers and check them at the receiver
  std::map<std::string, std::string> extra;  // transport-specific knobs ("qps", "tx_depth"...)
};

// One end of one flow, as the engine asks a transport to create it.
struct ConnectionSpec {
  std::uint32_t stage = 0;    // stamped into messages so stale traffic is detected
  std::uint32_t flow_id = 0;  // unique within the stage
  int local_rank = 0;
  int peer_rank = 0;
  bool send = false;       // this end sends (src of the flow, or either end if bidir)
  bool receive = false;    // this end receives
  bool initiator = false;  // which end actively connects when the transport needs one
  int streams = 1;         // TCP sockets or RC QPs for this flow
};

// Counters of one direction at one end. Monotonic; readable while running.
struct DirectionCounters {
  std::uint64_t bytes = 0;  // payload bytes sent (tx) or received and accepted (rx)
  std::uint64_t messages = 0;
  std::uint64_t errors = 0;      // malformed / out-of-sequence messages, completion errors
  std::uint64_t mismatches = 0;  // verification: payload words that differ from the pattern
};

struct ConnectionCounters {
  DirectionCounters tx;
  DirectionCounters rx;
};

// Why a connection failed, in words for the results ("peer closed the connection",
// "retry exceeded: peer or path unreachable", "stage 2 message from stage 1").
struct TransportFailure {
  std::string reason;
  bool peer_side = false;  // true when the evidence points at the peer (EOF, reset, retry)
};

class TransportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Connection {
 public:
  virtual ~Connection() = default;
  virtual const ConnectionSpec& spec() const = 0;
  virtual AddressBlob local_address() const = 0;
  // Throws TransportError with a reason when the peer cannot be reached by `deadline`.
  virtual void connect(const AddressBlob& peer, Clock::time_point deadline) = 0;
  virtual void start() = 0;
  virtual void stop() = 0;
  virtual bool wait(Clock::time_point deadline) = 0;
  virtual ConnectionCounters counters() const = 0;
  virtual std::optional<TransportFailure> error() const = 0;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual std::string name() const = 0;
  // This rank's endpoint (host filled by the engine when empty).
  virtual EndpointInfo local_endpoint() const = 0;
  virtual std::unique_ptr<Connection> create(const ConnectionSpec& spec) = 0;
  // The counters the kernel keeps for this rank's port now (burn/port_counters.h); none when
  // the transport has no port of its own to count.
  virtual PortCounterValues port_counters() const { return {}; }
};

// Tcp or Verbs (burn/verbs/, libibverbs loaded through rdma::VerbsApi). Throws Error(kExitInput)
// for Sim (no transport: the fluid model), EnvironmentError when it cannot be used.
std::unique_ptr<Transport> make_transport(TransportKind kind, const TransportOptions& o);

}  // namespace ibburn::burn
