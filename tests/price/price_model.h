#pragma once
// A rail fabric with its cables, router and pricing view, for the price tests.
#include <memory>

#include "price/price_fabric.h"
#include "routing/cable_index.h"
#include "routing/routing.h"
#include "tests/price/rail_fabric.h"

namespace ibburn::price::fixture {

struct PriceModel {
  RailFabric t;
  routing::CableIndex cables;
  std::unique_ptr<routing::Router> router;
  PriceFabric fabric;
  PriceModel(RailFabric rf, bool adaptive)
      : t(std::move(rf)),
        cables(t.fabric, 400),
        router(adaptive ? std::unique_ptr<routing::Router>(new routing::AdaptiveRouter(t.fabric, cables))
                        : std::unique_ptr<routing::Router>(new routing::LftRouter(t.fabric, cables, t.lfts))),
        fabric(t.fabric, cables, *router, adaptive) {}
  // The edge out of an HCA (host h, rail r) or out of a switch port.
  routing::EdgeId hca_up(int host, int rail) const { return cables.out_edge({t.hcas[host][rail], 1}); }
  routing::EdgeId out_of(topo::NodeId n, int port) const { return cables.out_edge({n, port}); }
};

}  // namespace ibburn::price::fixture
