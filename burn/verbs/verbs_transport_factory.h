#pragma once
// The verbs transport (RDMA WRITE over RC QPs). make_transport("verbs", ...) calls this.
#include <memory>

#include "burn/transport.h"
#include "rdma/verbs_api.h"

namespace ibburn::burn::verbs {

std::unique_ptr<Transport> make_verbs_transport(const TransportOptions& o);
// The same on any verbs table: tests pass the software HCA's.
std::unique_ptr<Transport> make_verbs_transport(const rdma::VerbsApi& api, const TransportOptions& o);

}  // namespace ibburn::burn::verbs
