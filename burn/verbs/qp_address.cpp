#include "burn/verbs/qp_address.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <nlohmann/json.hpp>

namespace ibburn::burn::verbs {
namespace {

std::string gid_hex(const ibv_gid& g) {
  std::string s;
  char byte[3];
  for (uint8_t b : g.raw) {
    std::snprintf(byte, sizeof byte, "%02x", b);
    s += byte;
  }
  return s;
}

ibv_gid gid_from_hex(const std::string& s) {
  ibv_gid g{};
  if (s.size() != 32) throw TransportError("verbs address: GID must be 32 hex digits");
  for (size_t i = 0; i < 16; ++i) {
    g.raw[i] = static_cast<uint8_t>(std::stoul(s.substr(2 * i, 2), nullptr, 16));
  }
  return g;
}

}  // namespace

AddressBlob encode(const FlowAddress& a) {
  nlohmann::json j{{"verbs", 1},
                   {"stage", a.stage},
                   {"flow", a.flow_id},
                   {"lid", a.lid},
                   {"roce", a.roce},
                   {"gid", gid_hex(a.gid)},
                   {"mtu", static_cast<int>(a.mtu)},
                   {"addr", a.addr},
                   {"rkey", a.rkey},
                   {"slot", a.slot_bytes}};
  nlohmann::json qps = nlohmann::json::array();
  for (const QpEndpoint& q : a.qps) qps.push_back({q.qpn, q.psn});
  j["qps"] = qps;
  const std::string text = j.dump();
  return AddressBlob(text.begin(), text.end());
}

FlowAddress decode_flow_address(const AddressBlob& blob) {
  try {
    const auto j = nlohmann::json::parse(blob.begin(), blob.end());
    if (j.value("verbs", 0) != 1) throw TransportError("not a verbs flow address");
    FlowAddress a;
    a.stage = j.at("stage").get<uint32_t>();
    a.flow_id = j.at("flow").get<uint32_t>();
    a.lid = j.at("lid").get<uint16_t>();
    a.roce = j.at("roce").get<bool>();
    a.gid = gid_from_hex(j.at("gid").get<std::string>());
    const int mtu = j.at("mtu").get<int>();
    if (mtu < IBV_MTU_256 || mtu > IBV_MTU_4096) throw TransportError("bad MTU code");
    a.mtu = static_cast<ibv_mtu>(mtu);
    a.addr = j.at("addr").get<uint64_t>();
    a.rkey = j.at("rkey").get<uint32_t>();
    a.slot_bytes = j.at("slot").get<uint64_t>();
    for (const auto& q : j.at("qps")) a.qps.push_back({q.at(0).get<uint32_t>(), q.at(1).get<uint32_t>()});
    return a;
  } catch (const TransportError& e) {
    throw TransportError(std::string("peer sent a bad verbs address: ") + e.what());
  } catch (const std::exception& e) {
    throw TransportError(std::string("peer sent a bad verbs address: ") + e.what());
  }
}

ibv_mtu path_mtu(ibv_mtu a, ibv_mtu b) { return std::min(a, b); }

int mtu_bytes(ibv_mtu m) { return 128 << static_cast<int>(m); }

QpTransition init_transition(uint8_t port, int access) {
  QpTransition t;
  t.attr.qp_state = IBV_QPS_INIT;
  t.attr.pkey_index = 0;
  t.attr.port_num = port;
  t.attr.qp_access_flags = access;
  t.mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
  return t;
}

QpTransition rtr_transition(const PortInfo& local, const FlowAddress& remote, const QpEndpoint& remote_qp) {
  QpTransition t;
  t.attr.qp_state = IBV_QPS_RTR;
  t.attr.path_mtu = path_mtu(local.active_mtu, remote.mtu);
  t.attr.dest_qp_num = remote_qp.qpn;
  t.attr.rq_psn = remote_qp.psn;
  t.attr.max_dest_rd_atomic = 1;
  t.attr.min_rnr_timer = 12;  // 0.64 ms: receives are reposted promptly
  t.attr.ah_attr.port_num = local.port;
  t.attr.ah_attr.sl = 0;
  if (local.roce) {
    // RoCE has no LIDs: route by GID through a GRH.
    t.attr.ah_attr.is_global = 1;
    t.attr.ah_attr.grh.dgid = remote.gid;
    t.attr.ah_attr.grh.sgid_index = static_cast<uint8_t>(local.gid_index);
    t.attr.ah_attr.grh.hop_limit = 64;
  } else {
    t.attr.ah_attr.is_global = 0;
    t.attr.ah_attr.dlid = remote.lid;
  }
  t.mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
           IBV_QP_MIN_RNR_TIMER;
  return t;
}

QpTransition rts_transition(uint32_t psn) {
  QpTransition t;
  t.attr.qp_state = IBV_QPS_RTS;
  t.attr.timeout = 14;  // 4.096 us * 2^14 = 67 ms per try; with 7 retries a dead peer shows in ~0.5 s
  t.attr.retry_cnt = 7;
  t.attr.rnr_retry = 7;  // infinite: a slow receiver throttles instead of failing the flow
  t.attr.sq_psn = psn;
  t.attr.max_rd_atomic = 1;
  t.mask =
      IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
  return t;
}

}  // namespace ibburn::burn::verbs
