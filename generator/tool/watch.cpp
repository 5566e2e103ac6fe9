#include "watch.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace ptcgen::tool {

namespace {

namespace fs = std::filesystem;

/// How long a burst of changes may go on before the run starts: an editor that saves by writing a
/// temporary file and renaming it makes several events within a millisecond or two.
constexpr int kSettleMs = 20;

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

/// A line of the watch's own, written at once so that it never interleaves with a diagnostic.
void say(const std::string& line) {
  const std::string text = "ptc-gen: " + line + "\n";
  if (::write(STDERR_FILENO, text.data(), text.size()) < 0) {
    // Nothing to do: stderr is gone, and the loop still stops on a signal.
  }
}

/// The watched directories (inotify watches a directory for the names in it: an editor may replace a
/// file rather than write it), by watch descriptor, with the names of the files that count in each.
class Watches {
 public:
  explicit Watches(int inotify) : inotify_(inotify) {}

  /// Watches the directories of `files` from now on, and only those. A directory watched already keeps
  /// its watch, so a change made while the last run went on is still in the queue and counts.
  void reset(const std::vector<std::string>& files) {
    std::map<std::string, std::set<std::string>> names_by_dir;
    for (const auto& file : files) {
      std::error_code ec;
      const fs::path path = fs::absolute(file, ec).lexically_normal();
      if (ec || !path.has_filename()) continue;
      names_by_dir[path.parent_path().string()].insert(path.filename().string());
    }
    constexpr std::uint32_t kMask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB;
    std::map<int, std::set<std::string>> now;
    for (auto& [dir, names] : names_by_dir) {
      const int wd = ::inotify_add_watch(inotify_, dir.c_str(), kMask);
      if (wd < 0) continue;  // gone for now; the files named on the command line keep theirs watched
      now[wd].insert(names.begin(), names.end());  // two paths to one directory share its watch
    }
    for (const auto& entry : by_descriptor_)
      if (!now.count(entry.first)) ::inotify_rm_watch(inotify_, entry.first);
    by_descriptor_ = std::move(now);
  }

  /// Whether the event is about a watched file.
  bool counts(const inotify_event& event) const {
    if (event.mask & IN_Q_OVERFLOW) return true;  // events were lost: one of them may have counted
    auto it = by_descriptor_.find(event.wd);
    return it != by_descriptor_.end() && event.len > 0 && it->second.count(event.name) > 0;
  }

 private:
  int inotify_;
  std::map<int, std::set<std::string>> by_descriptor_;
};

enum class Wake { Changed, Stop, Broken };

/// Waits for a change that counts, then for the burst it starts to settle; or for a signal.
Wake wait_for_change(int inotify, int signals, const Watches& watches) {
  bool changed = false;
  alignas(inotify_event) char buffer[16 * 1024];
  while (true) {
    pollfd fds[2] = {{inotify, POLLIN, 0}, {signals, POLLIN, 0}};
    const int n = ::poll(fds, 2, changed ? kSettleMs : -1);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Wake::Broken;
    }
    if (n == 0) return Wake::Changed;  // the burst settled
    if (fds[1].revents & POLLIN) return Wake::Stop;
    if (!(fds[0].revents & POLLIN)) continue;
    const ssize_t got = ::read(inotify, buffer, sizeof buffer);
    if (got <= 0) {
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      return Wake::Broken;
    }
    for (ssize_t at = 0; at < got;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      changed = changed || watches.counts(*event);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
    }
  }
}

/// Runs `generate`, between the begin line and the end line, and watches what it read (and `always`)
/// before the end line is written: whoever changes a file after seeing that line is sure to be seen.
void run(const std::function<Generation()>& generate, const std::vector<std::string>& always, Watches& watches) {
  say("begin");
  const auto start = std::chrono::steady_clock::now();
  Generation g = generate();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  g.files_read.insert(g.files_read.end(), always.begin(), always.end());
  watches.reset(g.files_read);
  say(std::string("end: ") + (g.ok ? "ok" : "failed") + " in " + std::to_string(ms) + " ms");
}

}  // namespace

int watch(const std::function<Generation()>& generate, const std::vector<std::string>& always) {
  // The signals are read from a descriptor, between runs: a run is never cut off halfway through
  // writing its files. Blocked before any thread starts, so every thread leaves them to the descriptor.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  if (::sigprocmask(SIG_BLOCK, &stop, nullptr) != 0) {
    say(std::string("error: cannot watch: ") + std::strerror(errno));
    return 1;
  }
  const Fd signals(::signalfd(-1, &stop, SFD_CLOEXEC));
  const Fd inotify(::inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
  if (signals.get() < 0 || inotify.get() < 0) {
    say(std::string("error: cannot watch: ") + std::strerror(errno));
    return 1;
  }
  Watches watches(inotify.get());
  watches.reset(always);  // a save during the first run is seen, as one during any later run is
  while (true) {
    run(generate, always, watches);
    switch (wait_for_change(inotify.get(), signals.get(), watches)) {
      case Wake::Changed: break;
      case Wake::Stop: say("stopped"); return 0;
      case Wake::Broken: say(std::string("error: watching stopped: ") + std::strerror(errno)); return 1;
    }
  }
}

}  // namespace ptcgen::tool
