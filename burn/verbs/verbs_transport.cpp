// The verbs Transport: binds a rank to one HCA port, then creates one VerbsConnection per
// flow end, all sharing the port's context and protection domain.
#include <iostream>

#include "burn/rank_binding.h"
#include "burn/socket_util.h"
#include "burn/verbs/cpu_affinity.h"
#include "burn/verbs/kernel_port_counters.h"
#include "burn/verbs/verbs_connection.h"
#include "burn/verbs/verbs_transport_factory.h"
#include "common/error.h"
#include "cuda/gpu_memory.h"

namespace ibburn::burn::verbs {
namespace {

// The GPU to send from: the one asked for, else the HCA's paired GPU when CUDA sees it.
int gpu_for(const TransportOptions& o, const std::string& device) {
  if (o.gpu >= 0) return o.gpu;
  auto it = o.gpu_by_hca.find(device);
  if (it == o.gpu_by_hca.end()) return -1;
  const int gpu = cuda::device_at_pci_address(it->second);
  if (gpu < 0)
    std::cerr << "ibburn: verbs " << device << ": its GPU " << it->second
              << " is not visible to CUDA; sending from host memory\n";
  return gpu;
}

// A message above the port's max_msg_sz would complete with IBV_WC_LOC_LEN_ERR on every WR.
void check_message_size(size_t message_size, const PortInfo& port) {
  if (port.max_msg_sz == 0 || message_size <= port.max_msg_sz) return;
  throw InputError("--msg-size", 0,
                   std::to_string(message_size) + " bytes is more than " + port.device + ":" +
                       std::to_string(port.port) + " carries in one message (max_msg_sz " +
                       std::to_string(port.max_msg_sz) + " bytes)");
}

class VerbsTransport final : public Transport {
 public:
  VerbsTransport(const rdma::VerbsApi& api, const TransportOptions& o) : options_(o) {
    settings_ = parse_verbs_settings(o, 0);  // validates the knobs before any flow
    std::string device_name;
    uint8_t port = 1;
    std::string why = "--bind or --map";
    if (!o.bind.empty()) {
      std::tie(device_name, port) = parse_bind(o.bind);
    } else {
      std::vector<CandidatePort> candidates;
      for (const ActivePort& p : active_ports(api)) candidates.push_back({p.device, p.port, p.roce});
      PortChoice c = default_port(std::move(candidates), o.hca_by_gpu, o.local_rank, o.local_ranks);
      device_name = c.device;
      port = static_cast<uint8_t>(c.port);
      why = c.why;
    }
    rdma::DeviceList list(api);
    auto device = std::make_shared<VerbsDevice>();
    device->context = rdma::open_context(api, list.find(device_name));
    device->pd = rdma::alloc_pd(device->context);
    device->port = query_port_info(device->context, port, settings_);
    device->local_cpus = hca_local_cpus(device_name);
    device->monitor = std::make_unique<PortMonitor>(device->context, port);
    check_message_size(settings_.message_size, device->port);
    device_ = std::move(device);
    const PortInfo& p = device_->port;
    std::cerr << "ibburn: rank " << o.rank << " (" << hostname() << ", local rank " << o.local_rank << "): verbs "
              << p.name() << ", GID " << p.gid_index << " " << gid_type_name(p.gid_type) << ", active MTU "
              << (128 << static_cast<int>(p.active_mtu)) << " (" << why << ")\n";

    const cuda::RegistrationChoice registration = gpu_registration_choice(o.extra);  // validated with host memory too
    const int gpu = options_.gpu = gpu_for(o, device_name);
    if (gpu >= 0) {
      memory_ = [gpu, registration](const rdma::ProtectionDomain& pd, size_t bytes, int access) {
        return make_gpu_memory(pd, bytes, gpu, access, registration);
      };
    } else {
      const int node = rdma_device_numa_node(device_name);
      memory_ = [node](const rdma::ProtectionDomain& pd, size_t bytes, int access) {
        return make_host_memory(pd, bytes, node, access);
      };
    }
  }

  std::string name() const override { return "verbs"; }

  EndpointInfo local_endpoint() const override {
    const PortInfo& p = device_->port;
    EndpointInfo e;
    e.endpoint = p.device + ":" + std::to_string(p.port);
    e.port_guid = p.port_guid;
    e.lid = p.lid;
    e.link_layer = p.roce ? "Ethernet" : "InfiniBand";
    // RoCE ports are reached by GID (an IPv6 address, or IPv4-mapped for RoCE v2).
    if (p.roce) e.address = gid_text(p.gid);
    e.rate_gbps = p.rate_gbps;
    e.gpu = options_.gpu;
    return e;
  }

  PortCounterValues port_counters() const override {
    return read_kernel_port_counters(device_->port.device, device_->port.port);
  }

  std::unique_ptr<Connection> create(const ConnectionSpec& spec) override {
    auto c = std::make_unique<VerbsConnection>(device_, parse_verbs_settings(options_, spec.streams), spec,
                                               options_.verify, memory_);
    // Which GPUDirect path a rank got (dma-buf or peer memory) differs between hosts: say it once.
    if (options_.gpu >= 0 && !announced_) {
      std::cerr << "ibburn: verbs " << local_endpoint().endpoint << ": " << c->memory_description() << "\n";
      announced_ = true;
    }
    return c;
  }

 private:
  TransportOptions options_;
  VerbsSettings settings_;
  std::shared_ptr<const VerbsDevice> device_;
  MemoryFactory memory_;
  bool announced_ = false;
};

}  // namespace

std::unique_ptr<Transport> make_verbs_transport(const rdma::VerbsApi& api, const TransportOptions& o) {
  return std::make_unique<VerbsTransport>(api, o);
}

std::unique_ptr<Transport> make_verbs_transport(const TransportOptions& o) {
  return make_verbs_transport(rdma::system_verbs(), o);
}

}  // namespace ibburn::burn::verbs
