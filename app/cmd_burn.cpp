// `ibburn burn`: MPI-launched traffic through every endpoint at once (burn/engine.h), or the
// fluid model over a fabric (plan/burn_run.h).
#include <memory>

#include "app/command.h"
#include "burn/engine.h"
#include "burn/transport_opts.h"
#include "common/error.h"
#include "plan/burn_run.h"

namespace ibburn::app {
namespace {

Registrar reg([](CLI::App& root) {
  auto o = std::make_shared<burn::BurnOptions>();
  auto duration = std::make_shared<std::string>("60s");
  auto timeout = std::make_shared<std::string>("30s");
  auto stall = std::make_shared<std::string>("10s");
  auto msg = std::make_shared<std::string>();
  auto opts = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = root.add_subcommand("burn",
                                      "line-rate traffic through every endpoint at once, stage after stage (run under "
                                      "mpirun or srun, one rank per endpoint)");
  auto* plan = cmd->add_option("--plan", o->plan_file, "plan JSON (docs/burn.md)");
  cmd->add_option("--pattern", o->pattern, "built-in pattern without a plan: pairs, shift:K, one-to-one")
      ->capture_default_str()
      ->excludes(plan);
  cmd->add_option("--duration", *duration, "time per stage")->capture_default_str();
  cmd->add_option("--transport", o->transport, "tcp, verbs, or sim (the fluid model over --fabric, no MPI)")
      ->capture_default_str();
  cmd->add_option("--out", o->out_dir, "results directory (results.jsonl, summary.json)")->capture_default_str();
  cmd->add_option("--expect-gbps", o->expect_gbps, "expected Gb/s per endpoint (default: each port's rate)");
  cmd->add_option("--threshold", o->threshold, "pass at this fraction of the expected rate")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 1.0));
  cmd->add_flag("--verify", o->verify, "send patterned data and check it at the receiver");
  cmd->add_option("--streams,--qps", o->streams, "TCP streams / RC QPs per flow (plan may override)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  cmd->add_option("--msg-size", *msg, "message size (default: transport's; e.g. 1M, 8M)");
  cmd->add_option("--bind", o->bind, "endpoint per local rank: IPv4 address or interface (tcp), dev:port (verbs)")
      ->delimiter(',');
  cmd->add_option("--gpu", o->gpus, "GPU per local rank (verbs; default: the GPU the host check pairs with its HCA)")
      ->delimiter(',');
  cmd->add_option("--netns", o->netns, "network namespace per local rank, entered before any socket")->delimiter(',');
  cmd->add_option("--map", o->map_file, "rank map: HOST LOCAL_RANK ENDPOINT [gpu=N] [netns=NAME] per line");
  cmd->add_option("--opt", *opts, "transport option KEY=VALUE (tcp: sockbuf; verbs: see docs/verbs.md)");
  cmd->add_option("--timeout", *timeout, "bound on start-up, set-up, connect and report waits")->capture_default_str();
  cmd->add_option("--stall-timeout", *stall, "a direction with no progress this long fails")->capture_default_str();
  cmd->add_flag("--quiet", o->quiet, "no per-second progress on stderr");
  auto no_host_check = std::make_shared<bool>(false);
  cmd->add_flag("--no-host-check", *no_host_check, "skip the host preflight (`ibburn host check`) before stage 1");
  cmd->add_flag("--force", o->force, "run the ranks of hosts that fail the preflight (its errors become warnings)");
  cmd->add_option("--host-sysfs-root", o->host_sysfs_root,
                  "preflight: directory standing in for /sys ({host}: this host's name)")
      ->capture_default_str();
  cmd->add_option("--host-expect", o->host_expect, "preflight: expectations file (docs/host.md)");
  cmd->add_flag("--host-memory", o->host_memory, "verbs: send from host memory, not each HCA's paired GPU");
  auto r = std::make_shared<plan::BurnRouteOptions>();
  // --timeout is the burn's own: live discovery keeps its defaults.
  add_route_options(*cmd, r->routes, false);
  cmd->add_option("--endpoints", r->endpoints,
                  "rank -> HCA port GUID file: sim's ranks (default: every HCA port); with --fabric, the ports "
                  "of ranks whose transport reports none (TCP over IPoIB)");
  cmd->add_option("--degrade", r->degrade, "sim: NODE[PORT]=FRACTION cable capacity");
  cmd->add_option("--probes", r->probes, "with --fabric: at most this many probe stages to localise a slow cable")
      ->capture_default_str()
      ->check(CLI::Range(0, 64));
  cmd->callback([=] {
    o->duration = duration_option(*duration, "--duration");
    o->timeout = duration_option(*timeout, "--timeout");
    o->stall_timeout = duration_option(*stall, "--stall-timeout");
    if (o->duration.count() <= 0) throw Error(kExitInput, "--duration must be positive");
    if (!msg->empty()) o->message_size = size_option(*msg, "--msg-size");
    o->extra = burn::parse_transport_opts(*opts);
    o->host_check = !*no_host_check;
    r->fabric_given = cmd->count("--fabric") > 0;
    set_exit_code(plan::run_burn_with_routes(*o, *r));
  });
});

}  // namespace
}  // namespace ibburn::app
