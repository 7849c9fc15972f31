#include "burn/verbs/port_info.h"

#include <arpa/inet.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <optional>

#include <fmt/format.h>

#include "common/error.h"
#include "topo/link_rate.h"

namespace ibburn::burn::verbs {

double port_rate_gbps(uint8_t active_width, uint8_t active_speed) {
  using topo::Speed;
  Speed speed = Speed::Unknown;
  switch (active_speed) {
    case 1: speed = Speed::SDR; break;
    case 2: speed = Speed::DDR; break;
    case 4: speed = Speed::QDR; break;
    case 8: speed = Speed::FDR10; break;
    case 16: speed = Speed::FDR; break;
    case 32: speed = Speed::EDR; break;
    case 64: speed = Speed::HDR; break;
    case 128: speed = Speed::NDR; break;
    default: break;
  }
  return topo::LinkRate{topo::width_from_portinfo(active_width), speed}.data_gbps();
}

std::pair<std::string, uint8_t> parse_bind(const std::string& bind) {
  const auto colon = bind.rfind(':');
  if (colon == std::string::npos) return {bind, 1};
  const std::string dev = bind.substr(0, colon);
  const std::string num = bind.substr(colon + 1);
  int port = 0;
  try {
    size_t used = 0;
    port = std::stoi(num, &used);
    if (used != num.size()) port = 0;
  } catch (const std::exception&) {
    port = 0;
  }
  if (dev.empty() || port < 1 || port > 255) {
    throw InputError("--bind", 0, "'" + bind + "' is not DEVICE[:PORT], e.g. mlx5_0:1");
  }
  return {dev, static_cast<uint8_t>(port)};
}

bool gid_is_ipv4_mapped(const ibv_gid& g) {
  static constexpr uint8_t kPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
  return std::memcmp(g.raw, kPrefix, sizeof kPrefix) == 0;
}

bool gid_is_link_local(const ibv_gid& g) { return g.raw[0] == 0xfe && (g.raw[1] & 0xc0) == 0x80; }

std::string gid_text(const ibv_gid& g) {
  char text[INET6_ADDRSTRLEN] = {};
  return ::inet_ntop(AF_INET6, g.raw, text, sizeof text) != nullptr ? text : "?";
}

const char* gid_type_name(ibv_gid_type t) {
  switch (t) {
    case IBV_GID_TYPE_IB: return "IB";
    case IBV_GID_TYPE_ROCE_V1: return "RoCE v1";
    case IBV_GID_TYPE_ROCE_V2: return "RoCE v2";
  }
  return "unknown type";
}

const char* gid_family(const ibv_gid& g) { return gid_is_ipv4_mapped(g) ? "IPv4" : "IPv6"; }

namespace {

bool gid_is_zero(const ibv_gid& g) {
  return std::all_of(std::begin(g.raw), std::end(g.raw), [](uint8_t b) { return b == 0; });
}

std::string describe(const GidEntry& e) {
  return std::to_string(e.index) + " " + gid_type_name(e.type) + " " + gid_text(e.gid);
}

std::string describe(const std::vector<GidEntry>& valid) {
  std::string s;
  for (const GidEntry& e : valid) s += (s.empty() ? "" : ", ") + describe(e);
  return s.empty() ? "no valid entry" : s;
}

}  // namespace

GidEntry choose_gid(const std::vector<GidEntry>& valid, int table_len, bool roce, std::optional<int> wanted,
                    const std::string& where) {
  const auto at = [&](int index) {
    return std::find_if(valid.begin(), valid.end(), [index](const GidEntry& e) { return e.index == index; });
  };
  if (wanted) {
    const std::string knob = "gid_index=" + std::to_string(*wanted) + ": ";
    if (*wanted >= table_len) {
      throw InputError("--opt", 0, knob + where + " has " + std::to_string(table_len) + " GID entries");
    }
    const auto it = at(*wanted);
    if (it == valid.end()) {
      throw InputError(
          "--opt", 0,
          knob + where + "'s GID " + std::to_string(*wanted) + " is empty (valid: " + describe(valid) + ")");
    }
    // RoCE v1 is an Ethernet frame without an IP header: not routed, no DSCP for the lossless class.
    if (roce && it->type != IBV_GID_TYPE_ROCE_V2) {
      throw InputError("--opt", 0,
                       knob + where + "'s GID " + describe(*it) + " is not RoCE v2 (valid: " + describe(valid) + ")");
    }
    return *it;
  }
  if (!roce) {
    const auto it = at(0);
    if (it == valid.end()) throw EnvironmentError(where + ": GID 0 (the port GID) is empty");
    return *it;
  }
  const auto usable = [](const GidEntry& e) {
    return e.type == IBV_GID_TYPE_ROCE_V2 && !gid_is_zero(e.gid) && !gid_is_link_local(e.gid);
  };
  for (bool ipv4 : {true, false}) {
    for (const GidEntry& e : valid) {
      if (usable(e) && gid_is_ipv4_mapped(e.gid) == ipv4) return e;
    }
  }
  throw EnvironmentError(where + " has no RoCE v2 GID with a routable IP address (GID table: " + describe(valid) +
                         "); give its netdev an IP address, or pass --opt gid_index=N");
}

PortInfo query_port_info(const rdma::Context& context, uint8_t port, const VerbsSettings& settings) {
  const rdma::VerbsApi& api = context.api();
  PortInfo info;
  info.device = api.get_device_name(context->device);
  info.port = port;
  ibv_port_attr attr{};
  if (int rc = api.query_port(context.get(), port, &attr); rc != 0) {
    rdma::throw_verbs_error("ibv_query_port(" + info.name() + ")", rc);
  }
  if (attr.state != IBV_PORT_ACTIVE) {
    throw EnvironmentError(info.name() + " is not ACTIVE (state " + std::to_string(static_cast<int>(attr.state)) + ")");
  }
  info.lid = attr.lid;
  info.roce = attr.link_layer == IBV_LINK_LAYER_ETHERNET;
  info.grh_required = (attr.flags & IBV_QPF_GRH_REQUIRED) != 0;
  info.active_mtu = attr.active_mtu;
  info.max_msg_sz = attr.max_msg_sz;
  info.rate_gbps = port_rate_gbps(attr.active_width, attr.active_speed);

  std::vector<GidEntry> valid;
  for (int i = 0; i < attr.gid_tbl_len; ++i) {
    ibv_gid_entry e{};
    const int rc = api.query_gid_ex(context.get(), port, static_cast<uint32_t>(i), &e, 0);
    if (rc == ENODATA) continue;
    if (rc != 0) rdma::throw_verbs_error("ibv_query_gid_ex(" + info.name() + ", index " + std::to_string(i) + ")", rc);
    valid.push_back({i, e.gid, static_cast<ibv_gid_type>(e.gid_type)});
  }
  const GidEntry chosen = choose_gid(valid, attr.gid_tbl_len, info.roce, settings.gid_index, info.name());
  info.gid_index = chosen.index;
  info.gid = chosen.gid;
  info.gid_type = chosen.type;
  if (!valid.empty() && valid.front().index == 0) {
    info.subnet_prefix = be64toh(valid.front().gid.global.subnet_prefix);
    if (!info.roce) info.port_guid = be64toh(valid.front().gid.global.interface_id);
  }

  if (const auto& wanted = settings.path.pkey) {
    // The partition's entry, full membership first: a rank in it talks to its limited peers too.
    std::optional<int> found;
    for (int i = 0; i < attr.pkey_tbl_len; ++i) {
      __be16 k = 0;
      if (api.query_pkey(context.get(), port, i, &k) != 0) continue;
      const uint16_t key = be16toh(k);
      if ((key & 0x7FFF) != (*wanted & 0x7FFF)) continue;
      if (!found || (key & 0x8000)) found = i;
      if (key & 0x8000) break;
    }
    if (!found) {
      char host[256] = {};
      ::gethostname(host, sizeof host - 1);
      throw EnvironmentError(
          fmt::format("{}: {} is not in partition 0x{:04x} (its P_Key table lacks it): the job "
                      "would fail at connection set-up; see ibburn topo audit --partitions",
                      host, info.name(), *wanted & 0x7FFF));
    }
    info.pkey_index = *found;
    return info;
  }
  // A partition's key: index beyond the table or an invalid key (low 15 bits zero) is refused.
  const int pkey_index = settings.path.pkey_index;
  info.pkey_index = pkey_index;
  __be16 pkey = 0;
  const std::string knob = "pkey_index=" + std::to_string(pkey_index) + ": ";
  if (pkey_index >= attr.pkey_tbl_len) {
    throw InputError("--opt", 0, knob + info.name() + " has " + std::to_string(attr.pkey_tbl_len) + " P_Key entries");
  }
  if (int rc = api.query_pkey(context.get(), port, pkey_index, &pkey); rc != 0) {
    rdma::throw_verbs_error("ibv_query_pkey(" + info.name() + ", index " + std::to_string(pkey_index) + ")", rc);
  }
  if ((be16toh(pkey) & 0x7fff) == 0) {
    throw InputError("--opt", 0, knob + info.name() + "'s P_Key " + std::to_string(pkey_index) + " is empty");
  }
  return info;
}

std::vector<ActivePort> active_ports(const rdma::VerbsApi& api) {
  rdma::DeviceList list(api);
  std::vector<ActivePort> out;
  for (ibv_device* d : list.devices()) {
    rdma::Context ctx = rdma::open_context(api, d);
    ibv_device_attr dattr{};
    if (api.query_device(ctx.get(), &dattr) != 0) continue;
    for (uint8_t p = 1; p <= dattr.phys_port_cnt; ++p) {
      ibv_port_attr attr{};
      if (api.query_port(ctx.get(), p, &attr) == 0 && attr.state == IBV_PORT_ACTIVE) {
        out.push_back({api.get_device_name(d), p, attr.link_layer == IBV_LINK_LAYER_ETHERNET});
      }
    }
  }
  return out;
}

}  // namespace ibburn::burn::verbs
