#include "burn/verbs/port_info.h"

#include <cstring>

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

PortInfo query_port_info(const rdma::Context& context, uint8_t port, int gid_index) {
  const rdma::VerbsApi& api = context.api();
  PortInfo info;
  info.device = api.get_device_name(context->device);
  info.port = port;
  ibv_port_attr attr{};
  if (int rc = api.query_port(context.get(), port, &attr); rc != 0) {
    rdma::throw_verbs_error("ibv_query_port(" + info.device + ":" + std::to_string(port) + ")", rc);
  }
  if (attr.state != IBV_PORT_ACTIVE) {
    throw EnvironmentError(info.device + ":" + std::to_string(port) + " is not ACTIVE (state " +
                           std::to_string(static_cast<int>(attr.state)) + ")");
  }
  info.lid = attr.lid;
  info.roce = attr.link_layer == IBV_LINK_LAYER_ETHERNET;
  info.active_mtu = attr.active_mtu;
  info.max_msg_sz = attr.max_msg_sz;
  info.rate_gbps = port_rate_gbps(attr.active_width, attr.active_speed);
  info.gid_index = gid_index;
  if (int rc = api.query_gid(context.get(), port, gid_index, &info.gid); rc != 0) {
    rdma::throw_verbs_error("ibv_query_gid(" + info.device + ", index " + std::to_string(gid_index) + ")", rc);
  }
  if (!info.roce) info.port_guid = be64toh(info.gid.global.interface_id);
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
        out.push_back({api.get_device_name(d), p});
      }
    }
  }
  return out;
}

}  // namespace ibburn::burn::verbs
