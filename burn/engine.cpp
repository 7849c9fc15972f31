// MPI start-up and shut-down around the coordinator (rank 0) and the workers (every rank).
// MPI is used only while every rank is known to be alive (start-up); each MPI wait is
// bounded, and MPI_Init, the splits and MPI_Finalize run under a watchdog because a dead or
// stopped rank can make them hang.
#include "burn/engine.h"

#include <fcntl.h>
#define OMPI_SKIP_MPICXX 1
#include <mpi.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <functional>
#include <iostream>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "burn/ring_pattern.h"
#include "burn/control_channel.h"
#include "burn/control_relay.h"
#include "burn/coordinator.h"
#include "burn/rank_binding.h"
#include "burn/results.h"
#include "burn/worker.h"
#include "host/host_check.h"
#include "common/error.h"
#include "common/exit_watchdog.h"
#include "common/file_io.h"
#include "common/interrupt.h"

namespace ibburn::burn {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

void wait_request(MPI_Request* req, SteadyTime deadline, const char* what) {
  int done = 0;
  while (true) {
    if (MPI_Test(req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
      throw EnvironmentError(std::string("MPI failed during ") + what);
    if (done) return;
    if (Clock::now() >= deadline)
      throw EnvironmentError(std::string("MPI ") + what + " did not complete in time (a rank did not start?)");
    std::this_thread::sleep_for(1ms);
  }
}

// Text from rank 0 of `comm` to all its ranks: rank 0's start-up facts (where the control
// channel listens, or why the run cannot start), or a host check to the ranks of its host.
std::string broadcast(MPI_Comm comm, const std::string& text, int rank, SteadyTime deadline) {
  long long len = static_cast<long long>(text.size());
  MPI_Request req;
  MPI_Ibcast(&len, 1, MPI_LONG_LONG, 0, comm, &req);
  wait_request(&req, deadline, "start-up broadcast");
  std::string out = rank == 0 ? text : std::string(static_cast<std::size_t>(len), '\0');
  MPI_Ibcast(out.data(), static_cast<int>(len), MPI_CHAR, 0, comm, &req);
  wait_request(&req, deadline, "start-up broadcast");
  return out;
}

// The ranks on this host: those sharing memory, and among them those with the same host name
// (rank 0 groups ranks by name, so the two must agree; they differ only where ranks run in
// their own UTS namespaces, as hosts of a test do).
MPI_Comm host_comm(int rank, const std::string& host) {
  MPI_Comm node, local;
  if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node) != MPI_SUCCESS)
    throw EnvironmentError("MPI could not tell the ranks on this host apart");
  const int colour = static_cast<int>(std::hash<std::string>{}(host)&0x7fffffff);
  const int rc = MPI_Comm_split(node, colour, rank, &local);
  MPI_Comm_free(&node);
  if (rc != MPI_SUCCESS) throw EnvironmentError("MPI could not group the ranks of this host");
  return local;
}

// The host preflight, for the ranks of this host and for rank 0.
HostCheckAnswer check_this_host(const BurnOptions& o) {
  HostCheckAnswer a;
  try {
    host::CheckOptions co;
    co.sysfs_root = o.host_sysfs_root;
    if (auto at = co.sysfs_root.find("{host}"); at != std::string::npos) co.sysfs_root.replace(at, 6, hostname());
    if (!o.host_expect.empty()) co.expect_file = o.host_expect;
    // Each verbs flow end registers streams x message size per direction: the least a rank pins.
    if (o.transport == TransportKind::Verbs && o.message_size != 0)
      co.pinned_bytes = 2 * uint64_t(o.streams) * o.message_size;
    host::HostReport r = host::check_host(co);
    a.ok = std::none_of(r.findings.begin(), r.findings.end(),
                        [](const Finding& f) { return f.severity >= Severity::Error; });
    a.findings = r.findings;
    a.pairing = host::to_json(r).at("pairing");
  } catch (const std::exception& e) {
    a.ok = false;
    a.error = e.what();
  }
  return a;
}

std::map<std::string, std::string> gpu_by_hca(const HostCheckAnswer& host_check) {
  std::map<std::string, std::string> out;
  for (const auto& p : host_check.pairing) out[p.value("hca", "")] = p.value("gpu_bdf", "");
  return out;
}

// The pairing is in GPU address order (host::pair_gpus_with_hcas).
std::vector<std::pair<std::string, std::string>> hca_by_gpu(const HostCheckAnswer& host_check) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& p : host_check.pairing) out.emplace_back(p.value("gpu_bdf", ""), p.value("hca", ""));
  return out;
}

void enter_netns(const std::string& name) {
  const std::string path = "/var/run/netns/" + name;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw EnvironmentError("network namespace " + name + ": " + errno_text(errno));
  int rc = ::setns(fd, CLONE_NEWNET);
  int err = errno;
  ::close(fd);
  if (rc != 0) throw EnvironmentError("cannot enter network namespace " + name + ": " + errno_text(err));
}

// Rank 0 holds a socket per host (or per rank with --no-relay), a relay one per local rank:
// the soft limit on open files (often 1,024) is raised to the hard one.
void raise_open_files() {
  rlimit nofile{};
  if (getrlimit(RLIMIT_NOFILE, &nofile) != 0 || nofile.rlim_cur >= nofile.rlim_max) return;
  nofile.rlim_cur = nofile.rlim_max;
  setrlimit(RLIMIT_NOFILE, &nofile);
}

// MPI_Finalize waits for every rank; a dead or stopped one would make it wait forever.
void finalize_bounded(int code, std::chrono::seconds limit) {
  const ExitWatchdog watchdog(limit, code, "");
  MPI_Finalize();
}

// A rank that could not start its transport still answers rank 0 (with the reason) and then
// waits to be released, so the others' flows go on.
int idle_until_done(Channel& ch) {
  while (!ch.closed() && !interrupted())
    for (const auto& m : ch.poll(200))
      if (std::holds_alternative<Done>(m)) return kExitOk;
  return interrupted() ? kExitInterrupted : kExitEnvironment;
}

// Who this process is among the job's ranks and among its host's.
struct Place {
  int rank = 0, size = 0;
  int local_rank = 0, local_ranks = 1;
  std::string host;
};

// This rank's own start-up: its binding, and the first thing that went wrong locally, kept as
// the reason rank 0's results give for its flows.
struct LocalStart {
  Binding binding;
  std::string error;
};

// Rank 0's start-up: the coordinator's input and the boot facts every rank receives, or
// why the run cannot start.
struct Rank0Start {
  CoordinatorInput input;
  Boot boot;
  std::string error;
  int code = kExitInput;
};

// Phase 1: MPI up, and this rank's place in the job and on its host. `local` is the host's
// communicator, for the phases before the control channel. MPI_Init and the splits are
// collective and cannot be bounded from here: a rank that died before them (seen under srun)
// would leave this one waiting forever, so a watchdog ends it after `limit`.
Place start_mpi(MPI_Comm& local, std::chrono::milliseconds limit) {
  const ExitWatchdog watchdog(
      limit, kExitEnvironment,
      fmt::format("ibburn: {} (pid {}): MPI start-up did not complete within {} ms (a rank died or did not start?)",
                  hostname(), ::getpid(), limit.count()));
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    throw EnvironmentError("MPI_Init failed");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  Place me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &me.size);
  install_interrupt_handlers();
  raise_open_files();
  me.host = hostname();
  local = host_comm(me.rank, me.host);
  MPI_Comm_rank(local, &me.local_rank);
  MPI_Comm_size(local, &me.local_ranks);
  return me;
}

// Phase 2: one rank per host checks it; the others take the GPU pairing from its answer.
std::optional<HostCheckAnswer> check_hosts(const BurnOptions& o, MPI_Comm local, const Place& me, SteadyTime deadline) {
  if (!o.host_check) return std::nullopt;
  json j;
  if (me.local_rank == 0) to_json(j, check_this_host(o));
  return json::parse(broadcast(local, j.dump(), me.local_rank, deadline)).get<HostCheckAnswer>();
}

// Phase 3: the host's first rank relays its ranks' control channels to rank 0
// (burn/control_relay.h); rank 0's own host needs none. Returns the relay's path for every
// rank of the host ("" = connect to rank 0 directly) and, on the first rank, the relay.
std::string start_relay(const ControlOptions& o, MPI_Comm local, const Place& me, SteadyTime deadline,
                        std::unique_ptr<Relay>& relay) {
  if (!o.control_relay || me.local_ranks < 2) return "";
  std::string path;
  if (me.local_rank == 0 && me.rank != 0) {
    try {
      relay = std::make_unique<Relay>(relay_path(std::to_string(::getpid()), me.rank));
      path = relay->path();
    } catch (const std::exception& e) {
      std::cerr << fmt::format("ibburn: rank {}: no control relay ({}); this host's ranks connect to rank 0\n", me.rank,
                               e.what());
    }
  }
  return broadcast(local, path, me.local_rank, deadline);
}

// Phase 4: this rank's endpoint, namespace and GPU from the rank map and the options.
LocalStart bind_rank(const PlacementOptions& o, const Place& me) {
  LocalStart local;
  try {
    std::vector<RankMapEntry> map;
    if (!o.map_file.empty()) map = parse_rank_map(read_file(o.map_file), o.map_file);
    local.binding = select_binding(map, me.host, me.local_rank, o.bind, o.netns, o.gpus);
  } catch (const std::exception& e) {
    local.error = e.what();
  }
  return local;
}

// Phase 5 (every rank but 0): into the binding's network namespace before any socket.
void enter_namespace(LocalStart& local) {
  try {
    if (local.error.empty() && !local.binding.netns.empty()) enter_netns(local.binding.netns);
  } catch (const std::exception& e) {
    local.error = e.what();
  }
}

// Phase 5 (rank 0): the plan, the observer and the control channel's listener and token.
Rank0Start prepare_rank0(const BurnOptions& o, const Place& me, LocalStart& local) {
  Rank0Start r0;
  try {
    if (!local.error.empty()) throw Error(kExitInput, local.error);
    r0.input.ranks = me.size;
    // The ring is planned once the ranks have said where they are (the coordinator).
    if (!o.plan_from_observer && (!o.plan_file.empty() || o.pattern != kRingPattern))
      r0.input.plan =
          o.plan_file.empty() ? make_pattern(o.pattern, me.size, o.streams) : load_plan(o.plan_file, me.size);
    // The fabric's side (management datagrams through the host's own port) opens its
    // sockets in the host's namespace, before the data plane's.
    if (o.observer) r0.input.observers.push_back(o.observer());
    enter_namespace(local);
    if (!local.error.empty()) throw Error(kExitInput, local.error);
    std::uint16_t port = 0;
    r0.input.listener = listen_tcp("0.0.0.0", 0, 4096, &port);
    std::random_device rd;
    r0.input.token = fmt::format("{:08x}{:08x}", rd(), rd());
    r0.boot = {port, local_ipv4_addresses(), r0.input.token, std::nullopt, 0};
  } catch (const Error& e) {
    r0.error = e.what();
    r0.code = e.code();
  } catch (const std::exception& e) {
    r0.error = e.what();
    r0.code = kExitEnvironment;
  }
  if (!r0.error.empty()) r0.boot = {0, {}, "", r0.error, r0.code};
  return r0;
}

// Phase 6: rank 0's boot facts (where its control channel listens, or why the run cannot
// start) to every rank.
Boot share_boot(const Boot& mine, const Place& me, SteadyTime deadline) {
  json j;
  to_json(j, mine);
  Boot boot;
  from_json(json::parse(broadcast(MPI_COMM_WORLD, j.dump(), me.rank, deadline)), boot);
  return boot;
}

// Phase 7: this rank's transport on its binding, or null with the reason in `local`.
std::unique_ptr<Transport> open_transport(const BurnOptions& o, const Place& me,
                                          const std::optional<HostCheckAnswer>& host_check, LocalStart& local) {
  if (!local.error.empty()) return nullptr;
  try {
    TransportOptions to;
    to.bind = local.binding.endpoint;
    to.local_rank = me.local_rank;
    to.local_ranks = me.local_ranks;
    to.rank = me.rank;
    if (host_check) to.hca_by_gpu = hca_by_gpu(*host_check);
    to.gpu = local.binding.gpu;
    to.message_size = o.message_size;
    to.verify = o.verify;
    to.extra = o.extra;
    if (!o.host_memory && host_check) to.gpu_by_hca = gpu_by_hca(*host_check);
    return make_transport(o.transport, to);
  } catch (const std::exception& e) {
    local.error = e.what();
    return nullptr;
  }
}

// Phase 8: what this rank tells rank 0 first: its endpoint (or why it has none) and, from a
// host's first rank, the host's check.
Hello hello_for(const Place& me, const Boot& boot, const std::optional<HostCheckAnswer>& host_check,
                const Transport* transport, const LocalStart& local) {
  Hello hello;
  hello.rank = me.rank;
  hello.token = boot.token;
  if (me.local_rank == 0) hello.host_check = host_check;
  if (transport) {
    hello.endpoint = transport->local_endpoint();
    if (hello.endpoint.host.empty()) hello.endpoint.host = me.host;
    if (hello.endpoint.gpu < 0) hello.endpoint.gpu = local.binding.gpu;
  } else {
    hello.endpoint = EndpointInfo{me.host, local.binding.endpoint, "", 0, 0, "", 0, local.binding.gpu};
    hello.error = local.error;
  }
  return hello;
}

// Phase 9, every rank's worker: connects to rank 0 (or the host's relay), says Hello, then
// follows rank 0's instructions until released.
int run_rank_worker(const ControlOptions& o, const Place& me, const Hello& hello, Transport* transport,
                    const std::vector<std::string>& addresses, std::uint16_t port, const std::string& relay_at) {
  try {
    const auto deadline = Clock::now() + o.timeout;
    Channel ch(relay_at.empty() ? connect_control(addresses, port, deadline) : connect_unix(relay_at, deadline));
    ch.send(hello, Clock::now() + 5s);
    return transport ? run_worker(me.rank, ch, *transport, o) : idle_until_done(ch);
  } catch (const std::exception& e) {
    std::cerr << fmt::format("ibburn: rank {} ({}): {}\n", me.rank, me.host, e.what());
    return kExitEnvironment;
  }
}

// Phase 9 on rank 0: the coordinator on this thread, rank 0's own worker beside it.
int run_rank0(const BurnOptions& o, const Place& me, CoordinatorInput input, const Hello& hello, Transport* transport,
              const Boot& boot, const std::string& relay_at) {
  int worker_code = 0;
  std::thread own([&] { worker_code = run_rank_worker(o, me, hello, transport, {"127.0.0.1"}, boot.port, relay_at); });
  int code = 0;
  try {
    code = run_coordinator(std::move(input), o);
  } catch (...) {
    request_interrupt(SIGTERM);  // releases this rank's worker thread
    own.join();
    finalize_bounded(kExitEnvironment, 2s);
    throw;
  }
  own.join();
  return code;
}

// Phase 9 on the other ranks: the worker, and on a host's first rank the relay beside it.
int run_other_rank(const ControlOptions& o, const Place& me, const Hello& hello, Transport* transport, const Boot& boot,
                   const std::string& relay_at, Relay* relay) {
  std::thread relaying;
  if (relay)
    relaying = std::thread([&] {
      try {
        relay->run(connect_control(boot.addresses, boot.port, Clock::now() + o.timeout));
      } catch (const std::exception& e) {
        std::cerr << fmt::format("ibburn: rank {} ({}): control relay: {}\n", me.rank, me.host, e.what());
        relay->refuse();
      }
    });
  const int code = run_rank_worker(o, me, hello, transport, boot.addresses, boot.port, relay_at);
  if (relay) {
    relay->finish(code == kExitInterrupted ? 1s : 5s);  // the host's other ranks may wait for Done
    relaying.join();
  }
  return code;
}

}  // namespace

int run_burn(const BurnOptions& o) {
  MPI_Comm local_comm;
  const Place me = start_mpi(local_comm, o.timeout * 2);
  const auto startup_deadline = Clock::now() + o.timeout * 2;
  const std::optional<HostCheckAnswer> host_check = check_hosts(o, local_comm, me, startup_deadline);
  std::unique_ptr<Relay> relay;
  const std::string relay_at = start_relay(o, local_comm, me, startup_deadline, relay);
  MPI_Comm_free(&local_comm);

  LocalStart local = bind_rank(o, me);
  Rank0Start rank0;
  if (me.rank == 0)
    rank0 = prepare_rank0(o, me, local);
  else
    enter_namespace(local);
  const Boot boot = share_boot(rank0.boot, me, startup_deadline);
  if (boot.error) {
    finalize_bounded(boot.code, 10s);
    if (me.rank == 0) throw Error(static_cast<ExitCode>(rank0.code), rank0.error);
    return boot.code;
  }

  const std::unique_ptr<Transport> transport = open_transport(o, me, host_check, local);
  const Hello hello = hello_for(me, boot, host_check, transport.get(), local);
  const int code = me.rank == 0 ? run_rank0(o, me, std::move(rank0.input), hello, transport.get(), boot, relay_at)
                                : run_other_rank(o, me, hello, transport.get(), boot, relay_at, relay.get());
  finalize_bounded(code, code == kExitInterrupted ? 1s : 10s);
  return code;
}

}  // namespace ibburn::burn
