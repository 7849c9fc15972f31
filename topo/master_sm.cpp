#include "topo/master_sm.h"

#include <infiniband/mad.h>

#include <utility>

namespace ibburn::topo {
namespace {

uint32_t field(const std::array<uint8_t, kMadDataSize>& d, MAD_FIELDS f) {
  return mad_get_field(const_cast<uint8_t*>(d.data()), 0, f);
}

}  // namespace

uint16_t master_sm_lid(const std::array<uint8_t, kMadDataSize>& port_info) {
  return static_cast<uint16_t>(field(port_info, IB_PORT_SMLID_F));
}

MasterSm decode_sm_info(const std::array<uint8_t, kMadDataSize>& sm_info, uint16_t lid) {
  MasterSm sm;
  sm.lid = lid;
  sm.guid = mad_get_field64(const_cast<uint8_t*>(sm_info.data()), 0, IB_SMINFO_GUID_F);
  sm.state = static_cast<int>(field(sm_info, IB_SMINFO_STATE_F));
  sm.priority = static_cast<int>(field(sm_info, IB_SMINFO_PRIO_F));
  return sm;
}

namespace {

// The local port's PortInfo over a directed route of no hops.
MadResult local_port_info(MadWindow& window) {
  MadRequest pi;
  pi.mgmt_class = kClassSmiDirected;
  pi.attr_id = kAttrPortInfo;
  return window.run({pi}).front();
}

SmProbe probe_sm_of(MadWindow& window, const MadResult& local) {
  SmProbe out;
  if (!local.ok()) {
    out.error =
        "the local port's PortInfo: " + (local.answered ? "MAD status " + std::to_string(local.status) : local.error);
    return out;
  }
  const uint16_t lid = master_sm_lid(local.data);
  if (lid == 0) {
    out.error = "the local port names no subnet manager (MasterSMLID 0)";
    return out;
  }
  MadRequest si;
  si.mgmt_class = kClassSmiLid;
  si.attr_id = kAttrSmInfo;
  si.dlid = lid;
  MadResult r = window.run({si}).front();
  if (!r.ok()) {
    out.error = "SMInfo from LID " + std::to_string(lid) + ": " +
                (r.answered ? "MAD status " + std::to_string(r.status) : r.error);
    return out;
  }
  out.sm = decode_sm_info(r.data, lid);
  return out;
}

}  // namespace

SmProbe probe_master_sm(MadWindow& window) { return probe_sm_of(window, local_port_info(window)); }

Subnet probe_subnet(MadWindow& window, std::string source) {
  Subnet s;
  s.source = std::move(source);
  const MadResult local = local_port_info(window);
  if (local.ok()) {
    s.prefix = mad_get_field64(const_cast<uint8_t*>(local.data.data()), 0, IB_PORT_GID_PREFIX_F);
    s.sm_lid = master_sm_lid(local.data);
  }
  const SmProbe sm = probe_sm_of(window, local);
  s.sm_probed = true;
  if (sm.sm) {
    s.sm_guid = sm.sm->guid;
    s.sm_master = sm.sm->master();
  }
  return s;
}

}  // namespace ibburn::topo
