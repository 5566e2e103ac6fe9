#pragma once
// Reading files that an attacker may have chosen: a cloned repository can carry a settings.json that
// is a FIFO or a symlink to /dev/zero, and `@FILE` can name a directory.

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <string_view>

#include <ptc/error.hpp>
#include <ptc/limits.hpp>

namespace ptc {

/// The whole content of `path`, which must be a regular file (symlinks are followed) of at most
/// `max_bytes` bytes. Never blocks on a FIFO and never reads past `max_bytes`: a directory, device,
/// FIFO or socket, a file that is too large (or grows past the limit while read) and a file that
/// cannot be opened give an Error that starts with the path, e.g.
/// "conf/settings.json: not a regular file (a FIFO)".
Result<std::string> read_regular_file(const std::filesystem::path& path, std::size_t max_bytes = limits::kFileBytes);

/// The rest of the open file `fd` (its position onwards) up to `max_bytes` bytes, read in chunks as they
/// arrive; more gives "<name>: more than N bytes (the limit)", a read error "<name>: <strerror>".
Result<std::string> read_descriptor(int fd, std::string_view name, std::size_t max_bytes = limits::kFileBytes);

/// The rest of `in` up to `max_bytes` bytes; more gives "<name>: more than N bytes (the limit)".
Result<std::string> read_stream(std::istream& in, std::string_view name, std::size_t max_bytes = limits::kFileBytes);

}  // namespace ptc
