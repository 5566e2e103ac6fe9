#pragma once
// What a path that is not a regular file is, in the words every "not a regular file (...)" message
// uses: read_regular_file (core) and HostFilesystem (tools). Never installed (ptc_internal).

#include <string>

#include <sys/stat.h>

namespace ptc::text {

inline std::string file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a plain file";
}

}  // namespace ptc::text
