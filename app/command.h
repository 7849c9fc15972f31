#pragma once
// Each app/cmd_*.cpp registers its subcommands with a static Registrar, so adding a
// command touches no shared file. The CLI only parses arguments and calls library code.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

namespace ibburn::routing {
struct RouteOptions;
}
namespace ibburn::audit {
struct PolicyOptions;
}

namespace ibburn::app {

using RegisterFn = std::function<void(CLI::App& root)>;

struct Registrar {
  explicit Registrar(RegisterFn fn);
};

// Returns the subcommand `name` of `parent`, creating it (with `description`) if absent:
// several files can add commands under one group such as "topo".
CLI::App& group(CLI::App& parent, const std::string& name, const std::string& description);

// Parses a duration option ("10s", "1h"); a bad value is a usage error naming the option.
std::chrono::milliseconds duration_option(const std::string& text, const char* option);
// Parses a size option ("65536", "1M", "8MiB"); a bad value is a usage error naming the option.
std::size_t size_option(const std::string& text, const char* option);

// The fabric options (app/fabric_options.h) and --routing, --lfts, --save-lfts: where the
// fabric and its routes come from (`plan`, `plan localize`, `burn`). Defined in cmd_plan.cpp.
void add_route_options(CLI::App& cmd, routing::RouteOptions& options, bool discovery_knobs = true);

// The fabric audit's policy (--partitions, --mtu, --sm-hosts, --require-mkey): `topo audit` and
// `run`. Defined in cmd_topo_audit.cpp.
void add_audit_policy_options(CLI::App& cmd, audit::PolicyOptions& options);

// A command callback reports its exit code here (default 0).
void set_exit_code(int code);

}  // namespace ibburn::app
