#pragma once
// Reads the switches' linear forwarding tables from the live fabric with SMPs (libibmad),
// and saves/loads them as JSON so a plan can be recomputed offline.
#include <chrono>
#include <string>

#include "plan/routing.h"
#include "topo/fabric.h"

namespace ibburn::plan {

struct LftReadOptions {
  std::string ca;  // -C
  int port = 0;    // -P
  std::chrono::milliseconds timeout{500};
};

// Every switch of `fabric` with a LID. Throws EnvironmentError when the local port cannot
// be opened or a switch does not answer.
ForwardingTables read_forwarding_tables(const topo::Fabric& fabric, const LftReadOptions& options);

std::string lfts_to_json_text(const ForwardingTables& lfts);
ForwardingTables load_lfts_json(const std::string& path);  // InputError on bad content

}  // namespace ibburn::plan
