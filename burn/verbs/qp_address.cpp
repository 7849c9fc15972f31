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

FlowAddress address_of(const PortInfo& port) {
  FlowAddress a;
  a.endpoint = port.name();
  a.lid = port.lid;
  a.roce = port.roce;
  a.gid_index = port.gid_index;
  a.gid = port.gid;
  a.gid_type = port.gid_type;
  a.subnet_prefix = port.subnet_prefix;
  a.mtu = port.active_mtu;
  return a;
}

AddressBlob encode(const FlowAddress& a) {
  nlohmann::json j{{"verbs", 1},
                   {"stage", a.stage},
                   {"flow", a.flow_id},
                   {"endpoint", a.endpoint},
                   {"lid", a.lid},
                   {"roce", a.roce},
                   {"gid_index", a.gid_index},
                   {"gid", gid_hex(a.gid)},
                   {"gid_type", static_cast<int>(a.gid_type)},
                   {"gid_family", gid_family(a.gid)},
                   {"subnet", a.subnet_prefix},
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
    a.endpoint = j.at("endpoint").get<std::string>();
    a.lid = j.at("lid").get<uint16_t>();
    a.roce = j.at("roce").get<bool>();
    a.gid_index = j.at("gid_index").get<int>();
    a.gid = gid_from_hex(j.at("gid").get<std::string>());
    const int type = j.at("gid_type").get<int>();
    if (type < IBV_GID_TYPE_IB || type > IBV_GID_TYPE_ROCE_V2) throw TransportError("bad GID type");
    a.gid_type = static_cast<ibv_gid_type>(type);
    // The family travels so a peer that reads the GID differently is caught here, not on the wire.
    if (j.at("gid_family").get<std::string>() != gid_family(a.gid)) throw TransportError("GID family mismatch");
    a.subnet_prefix = j.at("subnet").get<uint64_t>();
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

std::optional<std::string> address_mismatch(const PortInfo& local, const FlowAddress& remote) {
  const auto link = [](bool roce) { return roce ? "Ethernet" : "InfiniBand"; };
  if (local.roce != remote.roce) {
    return "link layers differ: this end " + local.name() + " is " + link(local.roce) + ", the peer " +
           remote.endpoint + " " + link(remote.roce);
  }
  if (!local.roce) return std::nullopt;
  const auto kind = [](const std::string& who, int index, ibv_gid_type type, const ibv_gid& gid) {
    return who + " GID " + std::to_string(index) + " (" + gid_type_name(type) + ", " + gid_family(gid) + " " +
           gid_text(gid) + ")";
  };
  if (local.gid_type != remote.gid_type || std::string(gid_family(local.gid)) != gid_family(remote.gid)) {
    return "GIDs of different kinds: this end " + kind(local.name(), local.gid_index, local.gid_type, local.gid) +
           ", the peer " + kind(remote.endpoint, remote.gid_index, remote.gid_type, remote.gid) +
           "; both ends need RoCE v2 GIDs of one family (an address of that family on both hosts, or "
           "--opt gid_index=N)";
  }
  return std::nullopt;
}

ibv_mtu path_mtu(ibv_mtu a, ibv_mtu b) { return std::min(a, b); }

QpTransition init_transition(uint8_t port, int access, uint16_t pkey_index) {
  QpTransition t;
  t.attr.qp_state = IBV_QPS_INIT;
  t.attr.pkey_index = pkey_index;
  t.attr.port_num = port;
  t.attr.qp_access_flags = access;
  t.mask = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS;
  return t;
}

QpTransition rtr_transition(const PortInfo& local, const FlowAddress& remote, const QpEndpoint& remote_qp,
                            const PathKnobs& path) {
  QpTransition t;
  t.attr.qp_state = IBV_QPS_RTR;
  t.attr.path_mtu = path_mtu(local.active_mtu, remote.mtu);
  t.attr.dest_qp_num = remote_qp.qpn;
  t.attr.rq_psn = remote_qp.psn;
  t.attr.max_dest_rd_atomic = 1;
  t.attr.min_rnr_timer = 12;  // 0.64 ms: receives are reposted promptly
  t.attr.ah_attr.port_num = local.port;
  t.attr.ah_attr.sl = static_cast<uint8_t>(path.sl);
  // RoCE has no LIDs: route by GID through a GRH. InfiniBand routes by LID and needs a GRH only
  // to cross a router into another subnet, or where the port demands one.
  if (local.roce || local.grh_required || local.subnet_prefix != remote.subnet_prefix) {
    t.attr.ah_attr.is_global = 1;
    t.attr.ah_attr.grh.dgid = remote.gid;
    t.attr.ah_attr.grh.sgid_index = static_cast<uint8_t>(local.gid_index);
    t.attr.ah_attr.grh.hop_limit = PathKnobs::kHopLimit;
    t.attr.ah_attr.grh.traffic_class = static_cast<uint8_t>(path.traffic_class);
  }
  if (!local.roce) t.attr.ah_attr.dlid = remote.lid;
  t.mask = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
           IBV_QP_MIN_RNR_TIMER;
  return t;
}

QpTransition rts_transition(uint32_t psn, const PathKnobs& path) {
  QpTransition t;
  t.attr.qp_state = IBV_QPS_RTS;
  t.attr.timeout = static_cast<uint8_t>(path.timeout);  // 4.096 us * 2^timeout per try
  t.attr.retry_cnt = static_cast<uint8_t>(path.retry_cnt);
  t.attr.rnr_retry = 7;  // infinite: a slow receiver throttles instead of failing the flow
  t.attr.sq_psn = psn;
  t.attr.max_rd_atomic = 1;
  t.mask =
      IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC;
  return t;
}

}  // namespace ibburn::burn::verbs
