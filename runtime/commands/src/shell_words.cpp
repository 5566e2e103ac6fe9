#include "shell_words.hpp"

#include <array>
#include <optional>

namespace ptc::commands {
namespace {

// Words that start a compound command or change how the rest of the line is read.
constexpr std::array<std::string_view, 21> kReservedWords = {
    "!",  "{",     "}",     "[[", "]]",   "if",   "then", "else",   "elif",     "fi",    "for",
    "in", "while", "until", "do", "done", "case", "esac", "select", "function", "coproc"};

bool is_reserved(std::string_view word) {
  for (auto reserved : kReservedWords)
    if (word == reserved) return true;
  return word == "time";
}

class Splitter {
 public:
  explicit Splitter(std::string_view line) : line_(line) {}

  std::variant<std::vector<SimpleCommand>, Unsupported> run() {
    while (pos_ < line_.size() && !failure_) step();
    if (!failure_) end_command();
    if (failure_) return Unsupported{*failure_};
    return std::move(commands_);
  }

 private:
  void fail(std::string construct) {
    if (!failure_) failure_ = std::move(construct);
  }

  void end_word() {
    if (!in_word_) return;
    current_.words.push_back(std::move(word_));
    word_.clear();
    in_word_ = false;
    quoted_ = false;
  }

  void end_command() {
    end_word();
    if (current_.words.empty()) return;
    // The shell reads these before any word is a command name; a rule can only be matched against a
    // plain command name, so anything else is left to the user.
    if (is_reserved(current_.words.front())) fail("compound command '" + current_.words.front() + "'");
    if (first_word_assignment_) fail("variable assignment");
    commands_.push_back(std::move(current_));
    current_ = {};
    first_word_assignment_ = false;
  }

  void append(char c) {
    in_word_ = true;
    word_ += c;
  }

  char peek(std::size_t ahead = 1) const { return pos_ + ahead < line_.size() ? line_[pos_ + ahead] : '\0'; }

  void step() {
    const char c = line_[pos_];
    switch (c) {
      case ' ':
      case '\t':
        end_word();
        ++pos_;
        return;
      case '\n':
      case ';':
      case '&':
      case '|':
        end_command();
        ++pos_;
        if ((c == '&' || c == '|') && (peek(0) == c || (c == '|' && peek(0) == '&'))) ++pos_;
        return;
      case '<':
      case '>': return fail("redirection");
      case '(':
      case ')': return fail("subshell");
      case '`': return fail("command substitution");
      case '\0': return fail("NUL byte");
      case '#':
        if (!in_word_) return fail("comment");
        break;
      case '\\':
        if (peek() == '\n') {
          pos_ += 2;  // line continuation
          return;
        }
        if (pos_ + 1 < line_.size()) {
          append(line_[pos_ + 1]);
          pos_ += 2;
          return;
        }
        break;
      case '\'': return single_quoted();
      case '"': return double_quoted();
      case '$':
        if (!dollar()) return;
        break;
      case '=':
        if (in_word_ && current_.words.empty() && !quoted_) first_word_assignment_ = true;
        break;
      default: break;
    }
    append(c);
    ++pos_;
  }

  // `$name`, `$1`, `$?` stay literal text in the word; every other expansion is refused.
  bool dollar() {
    switch (peek()) {
      case '(': fail("command substitution"); return false;
      case '{': fail("parameter expansion"); return false;
      case '[': fail("arithmetic expansion"); return false;
      case '\'': fail("ANSI-C quoting"); return false;
      case '"': fail("locale quoting"); return false;
      default: return true;
    }
  }

  void single_quoted() {
    const std::size_t close = line_.find('\'', pos_ + 1);
    if (close == std::string_view::npos) return fail("unterminated quote");
    in_word_ = true;
    quoted_ = true;
    word_.append(line_.substr(pos_ + 1, close - pos_ - 1));
    pos_ = close + 1;
  }

  void double_quoted() {
    in_word_ = true;
    quoted_ = true;
    for (++pos_; pos_ < line_.size(); ++pos_) {
      const char c = line_[pos_];
      if (c == '"') {
        ++pos_;
        return;
      }
      if (c == '`') return fail("command substitution");
      if (c == '\0') return fail("NUL byte");
      if (c == '$' && !dollar()) return;
      if (c == '\\' && pos_ + 1 < line_.size()) {
        const char next = line_[pos_ + 1];
        if (next == '\n') {
          ++pos_;
          continue;
        }
        if (next == '$' || next == '`' || next == '"' || next == '\\') {
          word_ += next;
          ++pos_;
          continue;
        }
      }
      word_ += c;
    }
    fail("unterminated quote");
  }

  std::string_view line_;
  std::size_t pos_ = 0;
  std::vector<SimpleCommand> commands_;
  SimpleCommand current_;
  std::string word_;
  bool in_word_ = false;
  bool quoted_ = false;  // the current word had a quote before any '=', so it is not an assignment
  bool first_word_assignment_ = false;
  std::optional<std::string> failure_;
};

}  // namespace

std::string SimpleCommand::text() const {
  std::string out;
  for (const auto& word : words) {
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

std::variant<std::vector<SimpleCommand>, Unsupported> split_shell_commands(std::string_view line) {
  return Splitter(line).run();
}

}  // namespace ptc::commands
