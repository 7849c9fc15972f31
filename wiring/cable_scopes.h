#pragma once
// The scopes each cable lies in, for grouping findings by cause (common/systemic_causes.h):
// the fabric, its tier ("HCA-leaf", "leaf-spine", "spine-core"), its pod, its rail (the HCA's
// device name across hosts: "mlx5_3", or "mlx5_3 port 2" for a second port) and each switch
// it ends on. Read from the wiring plan's structure (wiring/wiring_index.h), or from a
// discovered fabric when there is no plan. Pure logic.
#include "common/systemic_causes.h"
#include "topo/fabric.h"
#include "wiring/wiring.h"
#include "wiring/wiring_index.h"

namespace ibburn::wiring {

// The plan's cables, ends named as the plan names them.
CableScopes cable_scopes(const WiringIndex& plan, const WiringLayout& layout);
// The same, with HCAs told apart from switches by the plan alone (layout_plan without hints).
CableScopes cable_scopes(const Wiring& plan);
// The discovered links, ends named by Node::name (else the description), HCAs as discovered.
CableScopes cable_scopes(const topo::Fabric& fabric);

}  // namespace ibburn::wiring
