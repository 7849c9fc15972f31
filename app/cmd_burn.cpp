// `ibburn burn`: MPI-launched traffic through every endpoint at once (burn/engine.h).
#include <memory>
#include <stdexcept>

#include "app/command.h"
#include "burn/engine.h"
#include "common/error.h"
#include "common/file_io.h"
#include "plan/burn_localize.h"
#include "plan/plan_output.h"
#include "plan/route_model.h"
#include "plan/simulated_burn.h"

namespace ibburn::app {
namespace {

std::size_t size_arg(const std::string& text) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::string unit = text.substr(used);
  const unsigned long long mult = unit.empty() ? 1 : unit == "K" || unit == "KiB" ? 1ull << 10
                                  : unit == "M" || unit == "MiB" ? 1ull << 20
                                  : unit == "G" || unit == "GiB" ? 1ull << 30 : 0;
  if (used == 0 || mult == 0 || v == 0)
    throw Error(kExitInput, "--msg-size: \"" + text + "\" is not a size (e.g. 65536, 1M, 8MiB)");
  return static_cast<std::size_t>(v * mult);
}

// `--transport sim`: every rank is an HCA port of the fabric, and the fluid model moves
// the bytes (plan/simulated_burn.h).
int run_simulated(const burn::BurnOptions& o, std::shared_ptr<const plan::RouteModel> model,
                  const std::string& endpoints_file, const std::vector<std::string>& degrade) {
  plan::SimulatedBurn run;
  run.routes = model;
  run.endpoints = endpoints_file.empty()
                      ? plan::all_hca_ports(model->fabric)
                      : plan::parse_endpoints(read_file(endpoints_file), endpoints_file, model->fabric);
  const int ranks = static_cast<int>(run.endpoints.size());
  run.plan = o.plan_file.empty() ? burn::make_pattern(o.pattern, ranks, o.streams) : burn::load_plan(o.plan_file, ranks);
  for (const auto& d : degrade) plan::parse_degrade(d, model->fabric, *model->cables, run.degrade);
  return plan::run_simulated_burn(run, o);
}

Registrar reg([](CLI::App& root) {
  auto o = std::make_shared<burn::BurnOptions>();
  auto duration = std::make_shared<std::string>("60s");
  auto timeout = std::make_shared<std::string>("30s");
  auto stall = std::make_shared<std::string>("10s");
  auto msg = std::make_shared<std::string>();
  auto opts = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = root.add_subcommand(
      "burn", "line-rate traffic through every endpoint at once, stage after stage (run under "
              "mpirun or srun, one rank per endpoint)");
  auto* plan = cmd->add_option("--plan", o->plan_file, "plan JSON (docs/burn.md)");
  cmd->add_option("--pattern", o->pattern, "built-in pattern without a plan: pairs, shift:K, one-to-one")
      ->capture_default_str()
      ->excludes(plan);
  cmd->add_option("--duration", *duration, "time per stage")->capture_default_str();
  cmd->add_option("--transport", o->transport, "tcp, verbs, or sim (the fluid model over --fabric, no MPI)")
      ->capture_default_str();
  cmd->add_option("--out", o->out_dir, "results directory (results.jsonl, summary.json)")
      ->capture_default_str();
  cmd->add_option("--expect-gbps", o->expect_gbps,
                  "expected Gb/s per endpoint (default: each port's rate)");
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
  cmd->add_option("--gpu", o->gpus, "GPU per local rank (verbs; default: the GPU the host check pairs with its HCA)")->delimiter(',');
  cmd->add_option("--netns", o->netns, "network namespace per local rank, entered before any socket")
      ->delimiter(',');
  cmd->add_option("--map", o->map_file, "rank map: HOST LOCAL_RANK ENDPOINT [gpu=N] [netns=NAME] per line");
  cmd->add_option("--opt", *opts, "transport option KEY=VALUE (tcp: sockbuf; verbs: see docs/verbs.md)");
  cmd->add_option("--timeout", *timeout, "bound on start-up, set-up, connect and report waits")
      ->capture_default_str();
  cmd->add_option("--stall-timeout", *stall, "a direction with no progress this long fails")
      ->capture_default_str();
  cmd->add_flag("--quiet", o->quiet, "no per-second progress on stderr");
  auto no_host_check = std::make_shared<bool>(false);
  cmd->add_flag("--no-host-check", *no_host_check, "skip the host preflight (`ibburn host check`) before stage 1");
  cmd->add_flag("--force", o->force, "run the ranks of hosts that fail the preflight (its errors become warnings)");
  cmd->add_option("--host-sysfs-root", o->host_sysfs_root, "preflight: directory standing in for /sys ({host}: this host's name)")
      ->capture_default_str();
  cmd->add_option("--host-expect", o->host_expect, "preflight: expectations file (docs/host.md)");
  cmd->add_flag("--host-memory", o->host_memory, "verbs: send from host memory, not each HCA's paired GPU");
  auto routes = std::make_shared<plan::RouteOptions>();
  auto endpoints = std::make_shared<std::string>();
  auto degrade = std::make_shared<std::vector<std::string>>();
  auto probes = std::make_shared<int>(6);
  add_route_options(*cmd, *routes);
  cmd->add_option("--endpoints", *endpoints,
                  "rank -> HCA port GUID file: sim's ranks (default: every HCA port); with --fabric, the ports "
                  "of ranks whose transport reports none (TCP over IPoIB)");
  cmd->add_option("--degrade", *degrade, "sim: NODE[PORT]=FRACTION cable capacity");
  cmd->add_option("--probes", *probes, "with --fabric: at most this many probe stages to localise a slow cable")
      ->capture_default_str()
      ->check(CLI::Range(0, 64));
  cmd->callback([=] {
    o->duration = duration_option(*duration, "--duration");
    o->timeout = duration_option(*timeout, "--timeout");
    o->stall_timeout = duration_option(*stall, "--stall-timeout");
    if (o->duration.count() <= 0) throw Error(kExitInput, "--duration must be positive");
    if (!msg->empty()) o->message_size = size_arg(*msg);
    for (const auto& kv : *opts) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) throw Error(kExitInput, "--opt expects KEY=VALUE, got \"" + kv + "\"");
      o->extra[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    o->host_check = !*no_host_check;
    const bool sim = o->transport == "sim";
    if (sim) {
      std::shared_ptr<const plan::RouteModel> model = plan::load_route_model(*routes);
      o->explainer = [model, n = *probes]() -> std::shared_ptr<burn::Explainer> {
        return std::make_shared<plan::RouteExplainer>(model, n);
      };
      return set_exit_code(run_simulated(*o, model, *endpoints, *degrade));
    }
    if (!degrade->empty()) throw Error(kExitInput, "--degrade is for --transport sim");
    if (!endpoints->empty() && !cmd->count("--fabric")) throw Error(kExitInput, "--endpoints needs --fabric");
    if (cmd->count("--fabric")) {
      // Read on rank 0 only, when the run starts.
      o->explainer = [routes, file = *endpoints, n = *probes]() -> std::shared_ptr<burn::Explainer> {
        std::shared_ptr<const plan::RouteModel> m = plan::load_route_model(*routes);
        std::vector<uint64_t> guids;
        if (!file.empty())
          for (const auto& p : plan::parse_endpoints(read_file(file), file, m->fabric))
            guids.push_back(m->fabric.port(p).guid);
        return std::make_shared<plan::RouteExplainer>(m, n, std::move(guids));
      };
    }
    set_exit_code(burn::run_burn(*o));
  });
});

}  // namespace
}  // namespace ibburn::app
