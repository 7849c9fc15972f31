#pragma once
// Planes: a cluster of several subnets side by side, one per rail, each with its own subnet
// manager and subnet prefix (the wiring list's `plane` column, docs/topo-check.md "Planes").
// The fabric is their snapshots merged (one `--fabric` source per plane); this file tells
// which discovered subnet is which plane, and judges the planes against each other. The
// cables themselves are checked by check_wiring, which names a cable into the wrong plane
// (cross_plane) and a plane no source reached (plane_missing). Pure logic, no I/O.
//
//   no_sm             a plane whose sources saw no master subnet manager
//   sm_masters        a plane with more than one master (its islands each run their own)
//   plane_prefix      planes sharing one subnet prefix
//   plane_asymmetric  a plane with fewer switches than the others, or less bandwidth up its
//                     tiers (cables missing or down, a lower rate): a job striped over the
//                     rails waits for it (details: PlaneDetails, priced in price/)
#include <vector>

#include "common/finding.h"
#include "topo/fabric.h"
#include "wiring/wiring.h"

namespace ibburn::topo_check {

// Each discovered subnet becomes the plane most of its planned nodes lie in (Subnet::plane).
// A fabric that records no subnets (a snapshot merged before subnets were kept, a test's
// fabric) gets one per island. A plan without planes leaves every subnet at plane 0.
void assign_planes(topo::Fabric& fabric, const wiring::Wiring& plan);

// Below this share of the best plane's bandwidth a plane is reported (one cable of a small
// plane is already more than this; a rounding of rates is not).
inline constexpr double kPlaneBandwidthTolerance = 0.99;

// After assign_planes. Nothing for a plan without planes.
std::vector<Finding> check_planes(const topo::Fabric& fabric, const wiring::Wiring& plan);

}  // namespace ibburn::topo_check
