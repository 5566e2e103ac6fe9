#include <ptc/file_input.hpp>

#include <cerrno>
#include <cstring>
#include <istream>
#include <string_view>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_kind.hpp"

namespace ptc {
namespace {

std::string too_large(std::size_t max_bytes) { return "more than " + std::to_string(max_bytes) + " bytes (the limit)"; }

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// Reads until EOF, refusing more than max_bytes; the buffer grows with what arrives, never ahead of it.
Result<std::string> read_all(int fd, std::string_view name, std::size_t max_bytes, std::size_t size_hint) {
  std::string out;
  out.reserve(std::min(size_hint, max_bytes) + 1);
  char buffer[65536];
  for (;;) {
    const std::size_t want = std::min(sizeof buffer, max_bytes - out.size() + 1);
    const ssize_t n = ::read(fd, buffer, want);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error{std::string(name) + ": " + std::strerror(errno)};
    }
    if (n == 0) return out;
    if (out.size() + static_cast<std::size_t>(n) > max_bytes)
      return Error{std::string(name) + ": " + too_large(max_bytes)};
    out.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace

Result<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes) {
  const std::string name = path.string();
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever; the type is
  // checked on the descriptor, so a swap between check and open cannot slip a FIFO or device in.
  Fd fd(::open(name.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
  if (fd.get() < 0) return Error{name + ": " + std::strerror(errno)};
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return Error{name + ": " + std::strerror(errno)};
  if (!S_ISREG(st.st_mode)) return Error{name + ": not a regular file (" + text::file_kind(st.st_mode) + ")"};
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes) return Error{name + ": " + too_large(max_bytes)};
  const int flags = ::fcntl(fd.get(), F_GETFL);
  if (flags >= 0) ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK);
  return read_all(fd.get(), name, max_bytes, static_cast<std::size_t>(st.st_size));
}

Result<std::string> read_descriptor(int fd, std::string_view name, std::size_t max_bytes) {
  struct stat st {};
  const std::size_t hint = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::size_t>(st.st_size) : 0;
  return read_all(fd, name, max_bytes, hint);
}

Result<std::string> read_stream(std::istream& in, std::string_view name, std::size_t max_bytes) {
  std::string out;
  char buffer[65536];
  while (in) {
    in.read(buffer, static_cast<std::streamsize>(std::min(sizeof buffer, max_bytes - out.size() + 1)));
    const auto n = static_cast<std::size_t>(in.gcount());
    if (out.size() + n > max_bytes) return Error{std::string(name) + ": " + too_large(max_bytes)};
    out.append(buffer, n);
  }
  if (in.bad()) return Error{std::string(name) + ": read error"};
  return out;
}

}  // namespace ptc
