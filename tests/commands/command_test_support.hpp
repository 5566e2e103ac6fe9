#pragma once
// What the command and signal tests share: a temporary directory, files in it, and a recorder of the
// signals a bus publishes.

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdlib.h>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <ptc/signal_bus.hpp>

namespace ptc::test {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ptc-commands-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& relative) const { return path_ / relative; }

  /// Writes `text` to `relative` (directories created), returns the absolute path.
  std::filesystem::path write(const std::string& relative, const std::string& text) const {
    auto file = path_ / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << text;
    return file;
  }

 private:
  std::filesystem::path path_;
};

/// A command file with the given frontmatter lines (without the fences) and body.
inline std::string command_text(const std::string& frontmatter, const std::string& body = "Body.\n") {
  return "---\n" + frontmatter + "---\n" + body;
}

/// Records every signal (pattern `**`) in delivery order; thread-safe.
class SignalLog {
 public:
  explicit SignalLog(SignalBus& bus, std::string pattern = "**") : bus_(bus) {
    id_ = bus.subscribe(pattern, [this](const Signal& s) {
      std::lock_guard lock(mutex_);
      signals_.push_back(s);
      changed_.notify_all();
    });
  }
  ~SignalLog() { bus_.unsubscribe(id_); }

  std::vector<Signal> all() const {
    std::lock_guard lock(mutex_);
    return signals_;
  }
  std::vector<std::string> types() const {
    std::vector<std::string> out;
    for (const auto& s : all()) out.push_back(s.type);
    return out;
  }
  /// The signals of one type, in order.
  std::vector<Signal> of(const std::string& type) const {
    std::vector<Signal> out;
    for (const auto& s : all())
      if (s.type == type) out.push_back(s);
    return out;
  }
  /// Blocks until `count` signals of `type` have arrived.
  void wait_for(const std::string& type, std::size_t count) const {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] {
      std::size_t n = 0;
      for (const auto& s : signals_) n += s.type == type;
      return n >= count;
    });
  }

 private:
  SignalBus& bus_;
  SignalBus::SubscriptionId id_ = 0;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::vector<Signal> signals_;
};

}  // namespace ptc::test
