#pragma once
// Every rank's data-plane role (rank 0 runs one in a thread): follows rank 0's instructions
// over the control channel, drives its transport connections, samples them every second and
// reports each stage. Gives up, bounded, when rank 0 disappears.
#include "burn/control_channel.h"
#include "burn/options.h"
#include "burn/transport.h"

namespace ibburn::burn {

// Returns the rank's exit code: 0 done, 130 interrupted, 3 lost contact with rank 0.
int run_worker(int rank, Channel& control, Transport& transport, const ControlOptions& options);

std::string to_hex(const AddressBlob& blob);
AddressBlob from_hex(const std::string& hex);  // throws std::invalid_argument

}  // namespace ibburn::burn
