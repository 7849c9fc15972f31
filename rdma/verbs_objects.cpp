#include "rdma/verbs_objects.h"

#include <sys/resource.h>

#include <cerrno>
#include <cstring>

#include "common/error.h"

namespace ibburn::rdma {

void throw_verbs_error(const std::string& call, int error_number) {
  throw EnvironmentError(call + " failed: " + std::strerror(error_number));
}

std::string memlock_hint(int error_number, std::optional<uint64_t> limit_bytes) {
  if ((error_number != ENOMEM && error_number != EPERM) || !limit_bytes) return "";
  return " (RLIMIT_MEMLOCK is " + std::to_string(*limit_bytes / 1024) +
         " KiB (ulimit -l); set memlock unlimited: limits.conf, LimitMEMLOCK= for systemd, "
         "PropagateResourceLimits for Slurm)";
}

std::optional<uint64_t> memlock_limit() {
  rlimit limit{};
  if (::getrlimit(RLIMIT_MEMLOCK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  return static_cast<uint64_t>(limit.rlim_cur);
}

namespace {

// A failed call that pins memory: the error, and the memlock limit when it may be the cause.
[[noreturn]] void throw_pinning_error(const std::string& call, int error_number) {
  throw EnvironmentError(call + " failed: " + std::strerror(error_number) +
                         memlock_hint(error_number, memlock_limit()));
}

}  // namespace

DeviceList::DeviceList(const VerbsApi& api) : api_(&api) {
  errno = 0;
  list_ = api.get_device_list(&count_);
  if (list_ == nullptr) {
    const int err = errno != 0 ? errno : ENODEV;
    throw EnvironmentError(std::string("no RDMA devices: ibv_get_device_list failed: ") + std::strerror(err) +
                           (err == ENOSYS ? " (this kernel has no RDMA support)" : ""));
  }
}

DeviceList::~DeviceList() {
  if (list_ != nullptr) api_->free_device_list(list_);
}

ibv_device* DeviceList::find(const std::string& name) const {
  std::string present;
  for (ibv_device* d : devices()) {
    const char* n = api_->get_device_name(d);
    if (name == n) return d;
    present += present.empty() ? n : std::string(", ") + n;
  }
  throw EnvironmentError("RDMA device '" + name +
                         "' not found (present: " + (present.empty() ? std::string("none") : present) + ")");
}

Context open_context(const VerbsApi& api, ibv_device* device) {
  ibv_context* c = api.open_device(device);
  if (c == nullptr) throw_verbs_error(std::string("ibv_open_device(") + api.get_device_name(device) + ")", errno);
  return Context(&api, c);
}

ProtectionDomain alloc_pd(const Context& context) {
  ibv_pd* pd = context.api().alloc_pd(context.get());
  if (pd == nullptr) throw_verbs_error("ibv_alloc_pd", errno);
  return ProtectionDomain(&context.api(), pd);
}

MemoryRegion reg_mr(const ProtectionDomain& pd, void* addr, size_t length, int access) {
  ibv_mr* mr = pd.api().reg_mr(pd.get(), addr, length, access);
  if (mr == nullptr) throw_pinning_error("ibv_reg_mr of " + std::to_string(length) + " bytes", errno);
  return MemoryRegion(&pd.api(), mr);
}

CompChannel create_comp_channel(const Context& context) {
  ibv_comp_channel* ch = context.api().create_comp_channel(context.get());
  if (ch == nullptr) throw_verbs_error("ibv_create_comp_channel", errno);
  return CompChannel(&context.api(), ch);
}

CompletionQueue create_cq(const Context& context, int depth, const CompChannel* channel) {
  ibv_cq* cq = context.api().create_cq(context.get(), depth, nullptr, channel != nullptr ? channel->get() : nullptr, 0);
  if (cq == nullptr) throw_pinning_error("ibv_create_cq of depth " + std::to_string(depth), errno);
  return CompletionQueue(&context.api(), cq);
}

QueuePair create_qp(const ProtectionDomain& pd, ibv_qp_init_attr& attr) {
  ibv_qp* qp = pd.api().create_qp(pd.get(), &attr);
  if (qp == nullptr) throw_pinning_error("ibv_create_qp", errno);
  return QueuePair(&pd.api(), qp);
}

}  // namespace ibburn::rdma
