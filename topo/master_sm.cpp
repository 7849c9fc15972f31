#include "topo/master_sm.h"

#include <infiniband/mad.h>

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

SmProbe probe_master_sm(MadWindow& window) {
  SmProbe out;
  // The local port's PortInfo over a directed route of no hops.
  MadRequest pi;
  pi.mgmt_class = kClassSmiDirected;
  pi.attr_id = kAttrPortInfo;
  MadResult local = window.run({pi}).front();
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

}  // namespace ibburn::topo
