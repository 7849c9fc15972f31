#include "common/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/error.h"
#include "common/huge_pages.h"

namespace ibburn {

std::string read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  // Sized from fstat and read straight into the string: growing a stream buffer copied a large
  // file several times over, and every copy paid its page faults (docs/benchmarks.md).
  struct stat st {};
  const size_t known = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) : 0;
  std::string out;
  out.reserve(known + 1);  // + 1: the read that finds the end needs room
  advise_huge_pages(out.data(), out.capacity());
  out.resize(known ? known + 1 : 4096);
  // Read to the end whatever fstat said: /proc and pipes report no size, and files change.
  // A read error ends the text there, as the stream this replaced did.
  size_t used = 0;
  for (;;) {
    if (used == out.size()) out.resize(out.size() * 2);
    const ssize_t n = ::read(fd, out.data() + used, out.size() - used);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    used += static_cast<size_t>(n);
  }
  ::close(fd);
  out.resize(used);
  return out;
}

namespace {
void write_all(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw Error(kExitEnvironment, path + ": write failed: " + std::strerror(errno));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
}
}  // namespace

void write_file_atomic(const std::string& path, std::string_view content) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(kExitEnvironment, path + ": cannot write: " + std::strerror(errno));
  try {
    write_all(fd, content, path);
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::fsync(fd);
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    throw Error(kExitEnvironment, path + ": cannot rename into place: " + std::strerror(e));
  }
}

void append_line_durable(const std::string& path, std::string_view line) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw Error(kExitEnvironment, path + ": cannot append: " + std::strerror(errno));
  std::string buf(line);
  buf += '\n';
  try {
    write_all(fd, buf, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::fsync(fd);
  ::close(fd);
}

void make_dirs(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) throw Error(kExitEnvironment, path + ": cannot create directory: " + ec.message());
}

}  // namespace ibburn
