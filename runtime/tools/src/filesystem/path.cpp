#include <ptc/filesystem.hpp>

namespace ptc {

namespace {

// A NUL inside an error message would cut `what()` short (it is a C string), so it is shown as "\0".
std::string printable(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (char c : path) {
    if (c == '\0') {
      out += "\\0";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

Result<std::string> normalize_path(std::string_view path) {
  // Host APIs stop at a NUL, so "a\0/../../x" would name a different file than the one we checked.
  if (path.find('\0') != std::string_view::npos) {
    return Error{"Path '" + printable(path) + "' contains a NUL byte."};
  }

  // Backslashes are ordinary characters: the separator is '/' on every host.
  std::vector<std::string_view> segments;
  std::size_t start = 0;
  while (start <= path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string_view::npos) end = path.size();
    std::string_view segment = path.substr(start, end - start);
    start = end + 1;

    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      if (segments.empty()) return Error{"Path '" + std::string(path) + "' escapes the filesystem root."};
      segments.pop_back();
      continue;
    }
    segments.push_back(segment);
  }

  std::string normalized;
  for (std::string_view segment : segments) {
    if (!normalized.empty()) normalized += '/';
    normalized += segment;
  }
  return normalized;
}

}  // namespace ptc
