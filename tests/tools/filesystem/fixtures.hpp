#pragma once
// What the filesystem tests share: catching a FilesystemError's message and path, a temporary directory
// removed at the end, host files read and written behind the filesystem's back, and bytes a text-mode
// implementation would get wrong.

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/filesystem.hpp>

namespace ptc_test {

namespace fs = std::filesystem;
using Paths = std::vector<std::string>;

/// What a FilesystemError said, or a test failure if the call did not throw one.
struct Caught {
  std::string message;
  std::string path;
};

template <class F>
Caught fs_error(F&& call) {
  try {
    call();
  } catch (const ptc::FilesystemError& e) {
    return {e.what(), e.path()};
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected a FilesystemError, got: " << e.what();
    return {};
  }
  ADD_FAILURE() << "expected a FilesystemError, nothing was thrown";
  return {};
}

template <class F>
std::string fs_message(F&& call) {
  return fs_error(std::forward<F>(call)).message;
}

/// A fresh directory under the system temp directory, removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    static std::atomic<unsigned> counter{0};
    std::random_device random;
    const fs::path base = fs::temp_directory_path();
    for (;;) {
      path_ = base / ("ptc-fs-test-" + std::to_string(random()) + "-" + std::to_string(counter++));
      if (fs::create_directory(path_)) break;  // false: the name was taken, try another
    }
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

inline std::string read_host_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  EXPECT_TRUE(in) << "cannot open " << file;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_host_file(const fs::path& file, const std::string& content) {
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary);
  out << content;
  ASSERT_TRUE(out) << "cannot write " << file;
}

// Bytes a text-mode or C-string based implementation would get wrong.
inline const std::string kBinary("line\r\nzero\0byte\xff\x80 end\n", 22);

}  // namespace ptc_test
