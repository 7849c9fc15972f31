#pragma once
// The burn pattern `ring` (pure): NCCL's ring step on a rail-optimised cluster, planned from the
// ranks' endpoints once they are known. Hosts in name order; each rail (the endpoint's device,
// "mlx5_3:1") is its own ring, host i's rank on it sending to host i+1's, all rails in one
// stage. A host with no rank on a rail is left out of that rail's ring. Its measured step sits
// beside the pricing model's (docs/price.md, "The ring pattern").
#include <string>
#include <vector>

#include "burn/stage_plan.h"
#include "burn/transport.h"

namespace ibburn::burn {

inline constexpr const char* kRingPattern = "ring";

// The ring's hosts in its order.
std::vector<std::string> ring_hosts(const std::vector<EndpointInfo>& endpoints);
// Throws InputError("--pattern") when fewer than 2 hosts have ranks.
Plan make_ring(const std::vector<EndpointInfo>& endpoints, int streams);

}  // namespace ibburn::burn
