#include "route_check/vl_reader.h"

#include <infiniband/mad.h>

#include <memory>

#include <fmt/format.h>

#include "common/error.h"

namespace ibburn::route_check {
namespace {

constexpr uint16_t kAttrSl2Vl = 0x0017;
constexpr uint64_t kPathSlid = 1ULL << 5, kPathDlid = 1ULL << 4;  // PathRecord component mask

void read_sl2vl(const topo::Fabric& fabric, const topo::MadOptions& mad, VlTables& out) {
  struct Ask {
    const topo::Node* sw;
    int in, out;
  };
  std::vector<Ask> asks;
  std::vector<topo::MadRequest> reqs;
  for (const topo::Node& node : fabric.nodes()) {
    const uint16_t lid = node.ports.empty() ? 0 : node.ports[0].lid;
    if (!node.is_switch() || lid == 0) continue;
    out.by_switch_guid.emplace(node.guid, Sl2VlTable(node.num_ports));
    for (const topo::Port& in : node.ports)
      for (const topo::Port& o : node.ports) {
        if (in.number == 0 || o.number == 0 || in.number == o.number || !in.linked() || !o.linked()) continue;
        topo::MadRequest r;
        r.mgmt_class = topo::kClassSmiLid;
        r.method = topo::kMethodGet;
        r.attr_id = kAttrSl2Vl;
        r.attr_mod = static_cast<uint32_t>(in.number << 8 | o.number);
        r.dlid = lid;
        reqs.push_back(r);
        asks.push_back({&node, in.number, o.number});
      }
  }
  topo::MadWindow window(mad, topo::kSmpWindow);
  const auto results = window.run(reqs);
  for (size_t i = 0; i < asks.size(); ++i) {
    const Ask& a = asks[i];
    if (!results[i].ok())
      throw EnvironmentError(
          fmt::format("switch {} did not answer SL2VL for in port {}, out port {}: {}", a.sw->name, a.in, a.out,
                      results[i].answered ? "status " + std::to_string(results[i].status) : results[i].error));
    auto& row = out.by_switch_guid.at(a.sw->guid).at(a.in, a.out);
    for (int sl = 0; sl < kSls; ++sl) {
      const uint8_t byte = results[i].data[static_cast<size_t>(sl / 2)];
      row[static_cast<size_t>(sl)] = sl % 2 == 0 ? byte >> 4 : byte & 0x0F;
    }
  }
}

struct PortCloser {
  void operator()(ibmad_port* p) const { mad_rpc_close_port(p); }
};

void read_path_sls(const topo::Fabric& fabric, const topo::MadOptions& mad, VlTables& out) {
  int classes[] = {IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS};
  std::unique_ptr<ibmad_port, PortCloser> port(
      mad_rpc_open_port(mad.ca.empty() ? nullptr : const_cast<char*>(mad.ca.c_str()), mad.port, classes, 3));
  if (!port) throw EnvironmentError("cannot open the local port for SA queries");
  mad_rpc_set_timeout(port.get(), static_cast<int>(mad.timeout.count()));
  mad_rpc_set_retries(port.get(), mad.retries);
  ib_portid_t sm{};
  if (ib_resolve_smlid_via(&sm, static_cast<int>(mad.timeout.count()), port.get()) < 0 || sm.lid <= 0)
    throw EnvironmentError("no subnet manager to ask for path SLs (the local port names none)");
  std::vector<std::pair<std::string, uint16_t>> hcas;
  for (topo::NodeId n = 0; n < fabric.size(); ++n) {
    if (fabric.node(n).is_switch()) continue;
    for (const topo::Port& p : fabric.node(n).ports)
      if (p.number > 0 && p.lid != 0) hcas.emplace_back(fabric.port_name({n, p.number}), p.lid);
  }
  for (const auto& [src_name, slid] : hcas)
    for (const auto& [dst_name, dlid] : hcas) {
      if (slid == dlid) continue;
      uint8_t buf[IB_SA_DATA_SIZE] = {};
      int s = slid, d = dlid;
      mad_encode_field(buf, IB_SA_PR_SLID_F, &s);
      mad_encode_field(buf, IB_SA_PR_DLID_F, &d);
      ib_sa_call_t sa{};
      sa.method = IB_MAD_METHOD_GET;
      sa.attrid = IB_SA_ATTR_PATHRECORD;
      sa.mask = kPathSlid | kPathDlid;
      sa.trid = mad_trid();
      ib_portid_t to = sm;
      const uint8_t* p = sa_rpc_call(port.get(), buf, &to, &sa, 0);
      if (!p)
        throw EnvironmentError(fmt::format("the SA (LID {}) did not answer the path {} (LID {}) -> {} (LID {})", sm.lid,
                                           src_name, slid, dst_name, dlid));
      int sl = 0;
      mad_decode_field(const_cast<uint8_t*>(p), IB_SA_PR_SL_F, &sl);
      out.path_sl[(static_cast<uint32_t>(slid) << 16) | dlid] = static_cast<uint8_t>(sl);
    }
}

}  // namespace

VlTables read_vl_tables(const topo::Fabric& fabric, const topo::MadOptions& mad) {
  VlTables out;
  read_sl2vl(fabric, mad, out);
  read_path_sls(fabric, mad, out);
  return out;
}

}  // namespace ibburn::route_check
