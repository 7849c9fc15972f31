// GPU payload memory: a cuda::DeviceBuffer registered through dma-buf or peer memory.
#include "burn/verbs/payload_memory.h"
#include "cuda/gpu_memory.h"
#include "cuda/gpu_registration.h"

namespace ibburn::burn::verbs {
namespace {

class GpuMemory final : public PayloadMemory {
 public:
  GpuMemory(const rdma::ProtectionDomain& pd, size_t bytes, int gpu, int access, cuda::RegistrationChoice choice)
      : buffer_(gpu, bytes) {
    cuda::GpuRegistrationRequest request;
    request.device_ptr = buffer_.data();
    request.length = buffer_.size();
    request.access = access;
    request.choice = choice;
    request.export_dmabuf = [this](uint64_t base, size_t length) { return buffer_.export_dmabuf(base, length); };
    const cuda::GpuRegistration r = cuda::register_gpu_memory(pd.api(), pd.get(), request);
    mr_ = rdma::MemoryRegion(&pd.api(), r.mr);
    how_ = r.how;
  }

  void* data() const override { return buffer_.data(); }
  size_t size() const override { return buffer_.size(); }
  const ibv_mr& mr() const override { return *mr_.get(); }
  std::string description() const override {
    return "GPU " + std::to_string(buffer_.gpu()) + " memory, registered through " + how_;
  }
  void fill(size_t offset, size_t bytes, uint32_t flow, uint64_t seq) override {
    buffer_.fill_pattern(offset, bytes, flow, seq);
  }
  uint64_t count_mismatches(size_t offset, size_t bytes, uint32_t flow, uint64_t seq) const override {
    return buffer_.count_mismatches(offset, bytes, flow, seq);
  }

 private:
  cuda::DeviceBuffer buffer_;
  rdma::MemoryRegion mr_;  // declared after the buffer: deregistered before the memory is freed
  std::string how_;
};

}  // namespace

std::unique_ptr<PayloadMemory> make_gpu_memory(const rdma::ProtectionDomain& pd, size_t bytes, int gpu, int access,
                                               cuda::RegistrationChoice choice) {
  return std::make_unique<GpuMemory>(pd, bytes, gpu, access, choice);
}

cuda::RegistrationChoice gpu_registration_choice(const std::map<std::string, std::string>& extra) {
  const auto it = extra.find("gpu_reg");
  return it == extra.end() ? cuda::RegistrationChoice::Auto : cuda::parse_registration_choice(it->second);
}

}  // namespace ibburn::burn::verbs
