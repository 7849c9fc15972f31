#pragma once
// The options `ibburn burn` and `ibburn run` share (one table, two commands): the burn's own
// (plan or pattern, duration, transport, binding, preflight...) and where the fabric and its
// routes come from.
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "burn/engine.h"
#include "plan/burn_command.h"

namespace ibburn::app {

struct BurnCli {
  burn::BurnOptions burn;
  plan::BurnRouteOptions routes;
  std::string duration = "60s", timeout = "30s", stall = "10s", msg, transport = "tcp";
  std::vector<std::string> opts;
  std::string pkey;  // --pkey: as --opt pkey=...
  bool no_host_check = false;
  bool no_relay = false;

  // In the command's callback: the text options parsed into `burn` and `routes`.
  void finish(const CLI::App& cmd);
};

// Adds the options to `cmd`; the returned state is filled when the command line is parsed.
std::shared_ptr<BurnCli> add_burn_options(CLI::App& cmd);

}  // namespace ibburn::app
