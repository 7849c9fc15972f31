#include "app/burn_options.h"

#include "app/command.h"
#include "app/site_options.h"
#include "burn/transport_opts.h"
#include "common/error.h"

namespace ibburn::app {

std::shared_ptr<BurnCli> add_burn_options(CLI::App& cmd) {
  auto c = std::make_shared<BurnCli>();
  burn::BurnOptions* o = &c->burn;
  auto* plan = cmd.add_option("--plan", o->plan_file, "plan JSON (docs/burn.md)");
  cmd.add_option(
         "--pattern", o->pattern,
         "built-in pattern without a plan: pairs, shift:K, one-to-one, ring (each rail's ring step, all rails at once)")
      ->capture_default_str()
      ->excludes(plan);
  cmd.add_option("--duration", c->duration, "time per stage")->capture_default_str();
  cmd.add_option("--transport", c->transport, "tcp, verbs, or sim (the fluid model over --fabric, no MPI)")
      ->capture_default_str();
  cmd.add_option("--out", o->out_dir, "results directory (results.jsonl, summary.json)")->capture_default_str();
  cmd.add_option("--expect-gbps", o->expect_gbps, "expected Gb/s per endpoint (default: each port's rate)");
  cmd.add_option("--threshold", o->threshold, "pass at this fraction of the expected rate")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 1.0));
  cmd.add_option("--max-retry-rate", o->max_retry_rate,
                 "packets a port's own counters may count as resent or out of sequence, per packet, before it is a "
                 "finding")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd.add_flag("--verify", o->verify, "send patterned data and check it at the receiver");
  cmd.add_option("--streams,--qps", o->streams, "TCP streams / RC QPs per flow (plan may override)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd.add_option("--msg-size", c->msg, "message size (default: transport's; e.g. 1M, 8M)");
  cmd.add_option("--bind", o->bind, "endpoint per local rank: IPv4 address or interface (tcp), dev:port (verbs)")
      ->delimiter(',');
  cmd.add_option("--gpu", o->gpus, "GPU per local rank (verbs; default: the GPU the host check pairs with its HCA)")
      ->delimiter(',');
  cmd.add_option("--netns", o->netns, "network namespace per local rank, entered before any socket")->delimiter(',');
  cmd.add_option("--map", o->map_file, "rank map: HOST LOCAL_RANK ENDPOINT [gpu=N] [netns=NAME] per line");
  cmd.add_option("--opt", c->opts, "transport option KEY=VALUE (tcp: sockbuf; verbs: see docs/verbs.md)");
  cmd.add_option(
      "--pkey", c->pkey,
      "verbs: the partition's P_Key (0x8001): each rank uses its index in its port's table, and a rank whose "
      "port lacks it fails at start");
  cmd.add_option("--timeout", c->timeout, "bound on start-up, set-up, connect and report waits")->capture_default_str();
  cmd.add_option("--stall-timeout", c->stall, "a direction with no progress this long fails")->capture_default_str();
  cmd.add_flag("--no-relay", c->no_relay,
               "every rank connects to rank 0 itself, not through its host's first rank (one socket per rank)");
  cmd.add_flag("--quiet", o->quiet, "no per-second progress on stderr");
  cmd.add_flag("--no-host-check", c->no_host_check, "skip the host preflight (`ibburn host check`) before stage 1");
  cmd.add_flag("--force", o->force, "run the ranks of hosts that fail the preflight (its errors become warnings)");
  cmd.add_option("--host-sysfs-root", o->host_sysfs_root,
                 "preflight: directory standing in for /sys ({host}: this host's name)")
      ->capture_default_str();
  cmd.add_option("--host-expect", o->host_expect, "preflight: expectations file (docs/host.md)");
  cmd.add_flag("--host-memory", o->host_memory, "verbs: send from host memory, not each HCA's paired GPU");
  plan::BurnRouteOptions* r = &c->routes;
  // --timeout is the burn's own: live discovery keeps its defaults.
  add_route_options(cmd, r->routes, false);
  cmd.add_option("--endpoints", r->endpoints,
                 "rank -> HCA port GUID file: sim's ranks (default: every HCA port); with --fabric, the ports "
                 "of ranks whose transport reports none (TCP over IPoIB)");
  cmd.add_option("--degrade", r->degrade, "sim: NODE[PORT]=FRACTION cable capacity");
  cmd.add_option("--probes", r->probes, "with --fabric: at most this many probe stages to localise a slow cable")
      ->capture_default_str()
      ->check(CLI::Range(0, 64));
  return c;
}

void BurnCli::finish(const CLI::App& cmd) {
  burn.duration = duration_option(duration, "--duration");
  burn.timeout = duration_option(timeout, "--timeout");
  burn.stall_timeout = duration_option(stall, "--stall-timeout");
  if (burn.duration.count() <= 0) throw Error(kExitInput, "--duration must be positive");
  if (!msg.empty()) burn.message_size = size_option(msg, "--msg-size");
  burn.transport = burn::transport_from_string(transport);
  burn.extra = burn::parse_transport_opts(opts);
  if (!pkey.empty()) burn.extra["pkey"] = pkey;
  burn.host_check = !no_host_check;
  burn.control_relay = !no_relay;
  routes.fabric_given = given(cmd, "--fabric");
}

}  // namespace ibburn::app
