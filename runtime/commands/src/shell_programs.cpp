#include "shell_programs.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <string>

namespace ptc::commands {
namespace {

// Programs that run a command given in their arguments.
constexpr std::array<std::string_view, 24> kWrappers = {
    "builtin",  "busybox", "chroot",  "chrt",   "command", "doas",     "env",    "exec",
    "fakeroot", "flock",   "ionice",  "ltrace", "nice",    "nohup",    "setsid", "stdbuf",
    "strace",   "sudo",    "taskset", "time",   "timeout", "unbuffer", "watch",  "xargs"};
// Programs whose `-c` option takes a script.
constexpr std::array<std::string_view, 9> kShells = {"ash", "bash", "dash", "fish", "ksh", "mksh", "sh", "su", "zsh"};
constexpr std::array<std::string_view, 4> kFindExec = {"-exec", "-execdir", "-ok", "-okdir"};

// How many words after a wrapper may start its command, how deeply wrappers are followed, and how many
// candidates a command may have (more makes the line unreadable: a wrapped command could be missed).
constexpr std::size_t kStartsPerWrapper = 4;
constexpr int kMaxWrapperDepth = 8;
constexpr std::size_t kMaxCandidates = 32;
// How many scripts one line may hand to shells, nested ones included.
constexpr int kMaxScripts = 64;

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& names, std::string_view word) {
  return std::find(names.begin(), names.end(), word) != names.end();
}

bool is_option(const std::string& word) { return word.size() > 1 && word.front() == '-'; }

bool is_assignment(const std::string& word) {
  const auto equals = word.find('=');
  return equals != std::string::npos && equals > 0 && word.front() != '-';
}

using Words = std::vector<std::string>;

// The candidates of one command as ranges of its words, each followed once.
class Behind {
 public:
  explicit Behind(const Words& words) : words_(words) {}

  void follow(std::size_t begin, std::size_t end, int depth) {
    if (begin >= end) return;
    const auto name = program_name(words_[begin]);
    const bool wrapper = one_of(kWrappers, name);
    if (!wrapper && name != "find") return;
    if (depth >= kMaxWrapperDepth) {
      complete = false;  // what this wrapper runs is not followed
      return;
    }
    if (wrapper) {
      std::size_t starts = 0;
      for (std::size_t i = begin + 1; i < end && starts < kStartsPerWrapper; ++i) {
        if (is_option(words_[i]) || is_assignment(words_[i])) continue;
        ++starts;
        add(i, end, depth);
      }
      return;
    }
    for (std::size_t i = begin + 1; i < end; ++i) {
      if (!one_of(kFindExec, words_[i])) continue;
      std::size_t stop = i + 1;
      while (stop < end && words_[stop] != ";" && words_[stop] != "+") ++stop;
      add(i + 1, stop, depth);
    }
  }

  std::vector<std::pair<std::size_t, std::size_t>> found;
  bool complete = true;

 private:
  void add(std::size_t begin, std::size_t end, int depth) {
    if (begin >= end || std::find(found.begin(), found.end(), std::pair{begin, end}) != found.end()) return;
    if (found.size() >= kMaxCandidates) {
      complete = false;
      return;
    }
    found.emplace_back(begin, end);
    follow(begin, end, depth + 1);
  }

  const Words& words_;
};

// The script `words` hands to a shell, if any: `sh -c SCRIPT` (also `-ec`, `-lc`...), `su -c SCRIPT`,
// `su --command=SCRIPT`, `eval WORDS...`.
std::optional<std::string> script_of(const Words& words) {
  if (words.empty()) return std::nullopt;
  const auto name = program_name(words.front());
  if (name == "eval") {
    std::string script;
    for (std::size_t i = 1; i < words.size(); ++i) script += (i > 1 ? " " : "") + words[i];
    return script;
  }
  if (!one_of(kShells, name)) return std::nullopt;
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (word.starts_with("--command=")) return word.substr(10);
    const bool short_c = is_option(word) && word[1] != '-' && word.find('c') != std::string::npos;
    if ((short_c || word == "--command") && i + 1 < words.size()) return words[i + 1];
  }
  return std::nullopt;
}

ShellLine read_nested(std::string_view line, int depth, int& scripts) {
  ShellLine out = read_shell_line(line, depth);
  const std::size_t read = out.commands.size();
  for (std::size_t i = 0; i < read; ++i) {
    std::vector<Words> candidates{out.commands[i].words};
    auto wrapped = commands_behind(out.commands[i].words);
    if (!wrapped.complete)
      out.unreadable.push_back("more wrapped commands behind `" + out.commands[i].words.front() +
                               "` than are followed");
    for (auto& candidate : wrapped.commands) candidates.push_back(std::move(candidate));
    for (const auto& candidate : candidates) {
      const auto script = script_of(candidate);
      if (!script) continue;
      if (++scripts > kMaxScripts) {
        out.unreadable.push_back("more than " + std::to_string(kMaxScripts) + " scripts handed to shells");
        return out;
      }
      ShellLine inner = read_nested(*script, depth + 1, scripts);
      for (auto& what : inner.unreadable)
        out.unreadable.push_back("in the script of `" + candidate.front() + "`: " + what);
      for (auto& command : inner.commands) out.commands.push_back(std::move(command));
    }
  }
  return out;
}

}  // namespace

std::string_view program_name(std::string_view word) {
  const auto slash = word.rfind('/');
  return slash == std::string_view::npos ? word : word.substr(slash + 1);
}

Wrapped commands_behind(const std::vector<std::string>& words) {
  Behind behind(words);
  behind.follow(0, words.size(), 0);
  Wrapped out;
  out.complete = behind.complete;
  for (auto [begin, end] : behind.found)
    out.commands.emplace_back(words.begin() + static_cast<std::ptrdiff_t>(begin),
                              words.begin() + static_cast<std::ptrdiff_t>(end));
  return out;
}

ShellLine read_command_line(std::string_view line) {
  int scripts = 0;
  return read_nested(line, 0, scripts);
}

}  // namespace ptc::commands
