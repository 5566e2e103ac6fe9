#include "shell_line.hpp"

#include <array>
#include <optional>
#include <utility>

namespace ptc::commands {
namespace {

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

// `NAME` or `NAME+`: what may stand before the `=` of an assignment.
bool is_assignment_name(std::string_view text) {
  if (text.ends_with('+')) text.remove_suffix(1);
  if (text.empty() || !is_name_start(text.front())) return false;
  for (char c : text)
    if (!is_name_char(c)) return false;
  return true;
}

// Characters that end a word outside quotes (`<` and `>` too, unless they open a process substitution).
bool is_meta(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '<' ||
         c == '>';
}

// Longest first, so that `;;&` is not read as `;;` and `&`.
constexpr std::array<std::string_view, 23> kOperators = {";;&", "&>>", "<<<", "<<-", ";;", ";&", "&&", "&>",
                                                         "||",  "|&",  "<<",  "<>",  "<&", ">>", ">|", ">&",
                                                         ";",   "&",   "|",   "<",   ">",  "(",  ")"};

bool is_redirection(std::string_view op) { return op.front() == '<' || op.front() == '>' || op.starts_with("&>"); }

struct Word {
  std::string text;  // after quote removal; substitutions keep their source text
  std::size_t column = 0;
  bool quoted = false;      // a part was quoted or escaped: never a reserved word
  bool computed = false;    // an expansion, a substitution, a glob, a brace expansion or a leading `~`
  bool assignment = false;  // NAME=... with NAME unquoted
};

enum class TokenKind { Word, Operator, Newline, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string op;
  Word word;
  std::size_t column = 0;
};

struct HereDocument {
  std::string delimiter;
  bool strip_tabs = false;  // `<<-`
  bool expands = false;     // an unquoted delimiter: the body's substitutions run
  std::size_t column = 0;
};

// Where a list is in the grammar, beyond "at a command" or "in its arguments".
enum class Mode { Normal, ForHeader, CaseSubject, CaseIn, CasePattern, Condition, FunctionName };

struct ListState {
  SimpleCommand command;
  Mode mode = Mode::Normal;
  int parens = 0;           // subshells opened in this list and not closed yet
  int open_cases = 0;       // case statements whose esac has not come yet
  bool for_in = false;      // the for header had its `in`
  bool after_time = false;  // `time` was just read: a `-p` is its option
};

class Reader {
 public:
  Reader(std::string_view line, int depth, std::size_t column_offset, ShellLine& out)
      : line_(line), depth_(depth), offset_(column_offset), out_(out) {}

  void read() { list(false, 0); }

 private:
  // ---- what could not be read
  void unreadable(std::string what, std::size_t column) {
    out_.unreadable.push_back(std::move(what) + " at column " + std::to_string(column + offset_));
  }
  std::size_t column() const { return pos_ + 1; }
  char peek(std::size_t ahead) const { return pos_ + ahead < line_.size() ? line_[pos_ + ahead] : '\0'; }

  // ---- tokens
  void skip_blanks() {
    while (pos_ < line_.size()) {
      if (line_[pos_] == ' ' || line_[pos_] == '\t') {
        ++pos_;
      } else if (line_[pos_] == '\\' && peek(1) == '\n') {
        pos_ += 2;  // a line continuation
      } else if (line_[pos_] == '#') {
        while (pos_ < line_.size() && line_[pos_] != '\n') ++pos_;  // a comment, up to the newline
      } else {
        return;
      }
    }
  }

  Token next() {
    if (pushed_) return std::exchange(pushed_, std::nullopt).value();
    skip_blanks();
    Token token;
    token.column = column();
    if (pos_ >= line_.size()) return token;
    if (line_[pos_] == '\n') {
      ++pos_;
      here_document_bodies();
      token.kind = TokenKind::Newline;
      return token;
    }
    std::size_t digits = pos_;  // `2>&1`: a descriptor number belongs to the redirection
    while (digits < line_.size() && is_digit(line_[digits])) ++digits;
    if (digits > pos_ && digits < line_.size() && (line_[digits] == '<' || line_[digits] == '>') &&
        (digits + 1 >= line_.size() || line_[digits + 1] != '('))
      pos_ = digits;
    if (!((line_[pos_] == '<' || line_[pos_] == '>') && peek(1) == '('))
      for (auto op : kOperators)
        if (line_.substr(pos_).starts_with(op)) {
          pos_ += op.size();
          token.kind = TokenKind::Operator;
          token.op = op;
          return token;
        }
    token.kind = TokenKind::Word;
    token.word = word();
    return token;
  }

  Word word() {
    Word w;
    w.column = column();
    const std::size_t start = pos_;
    bool brace = false, bracket = false;
    while (pos_ < line_.size() && !failed_) {
      const char c = line_[pos_];
      if ((c == '<' || c == '>') && peek(1) == '(') {
        process_substitution(w);
        continue;
      }
      if (is_meta(c)) break;
      if (!word_character(w, c, brace, bracket)) continue;
      w.text += c;
      ++pos_;
    }
    if (pos_ == start && !failed_) {  // never reached: every character starts a token; kept so no loop can stall
      unreadable("unexpected character", column());
      ++pos_;
    }
    if (brace && w.text.find('}') != std::string::npos &&
        (w.text.find(',') != std::string::npos || w.text.find("..") != std::string::npos))
      w.computed = true;  // {rm,-rf,/} is a brace expansion
    if (bracket && w.text.find(']') != std::string::npos) w.computed = true;
    return w;
  }

  // One character of a word outside quotes: true when it is plain text for the caller to append.
  bool word_character(Word& w, char c, bool& brace, bool& bracket) {
    switch (c) {
      case '\\':
        if (peek(1) == '\n') {
          pos_ += 2;
        } else if (pos_ + 1 < line_.size()) {
          w.text += line_[pos_ + 1];
          w.quoted = true;
          pos_ += 2;
        } else {
          w.text += c;
          ++pos_;
        }
        return false;
      case '\'': single_quoted(w); return false;
      case '"': double_quoted(w); return false;
      case '`': backquoted(w); return false;
      case '$': dollar(w); return false;
      case '*':
      case '?': w.computed = true; return true;
      case '[': bracket = true; return true;
      case '{': brace = true; return true;
      case '~':
        if (w.text.empty() && !w.quoted) w.computed = true;
        return true;
      case '=':
        if (!w.assignment && !w.quoted && is_assignment_name(w.text)) w.assignment = true;
        return true;
      default: return true;
    }
  }

  void single_quoted(Word& w) {
    const std::size_t close = line_.find('\'', pos_ + 1);
    w.quoted = true;
    if (close == std::string_view::npos) return unterminated("quote");
    w.text.append(line_.substr(pos_ + 1, close - pos_ - 1));
    pos_ = close + 1;
  }

  void double_quoted(Word& w) {
    const std::size_t open = column();
    w.quoted = true;
    for (++pos_; pos_ < line_.size() && !failed_;) {
      const char c = line_[pos_];
      if (c == '"') {
        ++pos_;
        return;
      }
      if (c == '`') {
        backquoted(w);
      } else if (c == '$') {
        dollar(w);
      } else if (c == '\\' && (peek(1) == '$' || peek(1) == '`' || peek(1) == '"' || peek(1) == '\\')) {
        w.text += peek(1);
        pos_ += 2;
      } else if (c == '\\' && peek(1) == '\n') {
        pos_ += 2;
      } else {
        w.text += c;
        ++pos_;
      }
    }
    if (!failed_) {
      unreadable("an unterminated quote", open);
      failed_ = true;
    }
  }

  void unterminated(std::string_view what) {
    unreadable("an unterminated " + std::string(what), column());
    pos_ = line_.size();
    failed_ = true;
  }

  // `$`: a parameter stays text (computed); substitutions are read as commands.
  void dollar(Word& w) {
    const std::size_t start = pos_;
    const char n = peek(1);
    if (n == '(' && peek(2) == '(') {
      arithmetic(pos_ + 3);
    } else if (n == '(') {
      pos_ += 2;
      nested_list(start);
    } else if (n == '{') {
      parameter_expansion();
    } else if (n == '[') {
      const std::size_t close = line_.find(']', pos_);
      if (close == std::string_view::npos) return unterminated("$[");
      pos_ = close + 1;
    } else if (n == '\'') {
      ansi_c_quoted();
    } else if (n == '"') {
      ++pos_;
      double_quoted(w);
      w.computed = true;
      return;
    } else if (is_name_char(n) || (n != '\0' && std::string_view("@*#?$!-").find(n) != std::string_view::npos)) {
      pos_ += 2;  // `$x`, `$1`, `$?`: the rest of the name is plain text
    } else {
      w.text += '$';  // a `$` before anything else is itself
      ++pos_;
      return;
    }
    w.computed = true;
    w.text.append(line_.substr(start, pos_ - start));
  }

  // `$((...))` (and `((...))`, `for ((...))`): skipped; a substitution inside is not read. Text that is
  // no arithmetic (`;`, quotes, braces, a newline) is not read either: bash may take `((` for two
  // subshells then (`((cd a) ; (rm x))` runs both).
  void arithmetic(std::size_t content, bool for_header = false) {
    const std::string_view not_arithmetic = for_header ? "'\"{}\n" : ";'\"{}\n";  // `for ((a; b; c))`
    const std::size_t open = column();
    int depth = 0;
    bool reported = false;
    for (std::size_t i = content; i < line_.size(); ++i) {
      const char c = line_[i];
      if (!reported && (c == '`' || (c == '$' && i + 1 < line_.size() && line_[i + 1] == '('))) {
        unreadable("a substitution inside an arithmetic expression", open);
        reported = true;
      } else if (!reported && not_arithmetic.find(c) != std::string_view::npos) {
        unreadable("commands or text inside an arithmetic expression", open);
        reported = true;
      }
      if (c == '(') ++depth;
      if (c == ')' && depth > 0) {
        --depth;
      } else if (c == ')' && i + 1 < line_.size() && line_[i + 1] == ')') {
        pos_ = i + 2;
        return;
      } else if (c == ')') {
        break;
      }
    }
    unreadable("an arithmetic expression without its `))`", open);
    pos_ = line_.size();
    failed_ = true;
  }

  // `${...}`: skipped to its `}`; a substitution inside is not read.
  void parameter_expansion() {
    const std::size_t open = column();
    int depth = 0;
    for (std::size_t i = pos_ + 2; i < line_.size(); ++i) {
      const char c = line_[i];
      if (c == '\\') {
        ++i;
      } else if (c == '`' || (c == '$' && i + 1 < line_.size() && line_[i + 1] == '(')) {
        unreadable("a substitution inside ${...}", open);
      } else if (c == '{') {
        ++depth;
      } else if (c == '}' && depth-- == 0) {
        pos_ = i + 1;
        return;
      }
    }
    unterminated("${");
  }

  void ansi_c_quoted() {
    for (std::size_t i = pos_ + 2; i < line_.size(); ++i) {
      if (line_[i] == '\\') {
        ++i;
      } else if (line_[i] == '\'') {
        pos_ = i + 1;
        return;
      }
    }
    unterminated("$'");
  }

  // `$(` or `<(`/`>(` already consumed up to the parenthesis: the list inside, up to its `)`.
  void nested_list(std::size_t start) {
    if (depth_ + 1 > kMaxShellNesting) {
      unreadable("substitutions nested more than " + std::to_string(kMaxShellNesting) + " deep", start + 1);
      pos_ = line_.size();
      failed_ = true;
      return;
    }
    ++depth_;
    list(true, start + 1);
    --depth_;
  }

  void process_substitution(Word& w) {
    const std::size_t start = pos_;
    pos_ += 2;
    nested_list(start);
    w.computed = true;
    w.text.append(line_.substr(start, pos_ - start));
  }

  // `...`: the text inside, unescaped, is read as a line of its own.
  void backquoted(Word& w) {
    const std::size_t start = pos_;
    std::string inner;
    std::size_t i = pos_ + 1;
    for (; i < line_.size() && line_[i] != '`'; ++i) {
      if (line_[i] == '\\' && i + 1 < line_.size() &&
          (line_[i + 1] == '`' || line_[i + 1] == '\\' || line_[i + 1] == '$'))
        ++i;
      inner += line_[i];
    }
    if (i >= line_.size()) return unterminated("backquote");
    pos_ = i + 1;
    w.computed = true;
    w.text.append(line_.substr(start, pos_ - start));
    if (depth_ + 1 > kMaxShellNesting) {
      unreadable("substitutions nested more than " + std::to_string(kMaxShellNesting) + " deep", start + 1);
      return;
    }
    Reader(inner, depth_ + 1, offset_ + start + 1, out_).read();
  }

  // After a newline: the bodies of the here-documents opened on the line just ended.
  void here_document_bodies() {
    for (const auto& doc : std::exchange(here_documents_, {})) {
      bool closed = false;
      while (pos_ < line_.size() && !closed) {
        std::size_t end = line_.find('\n', pos_);
        if (end == std::string_view::npos) end = line_.size();
        std::string_view body_line = line_.substr(pos_, end - pos_);
        if (doc.strip_tabs)
          while (body_line.starts_with('\t')) body_line.remove_prefix(1);
        closed = body_line == doc.delimiter;
        if (!closed && doc.expands &&
            (body_line.find('`') != std::string_view::npos || body_line.find("$(") != std::string_view::npos))
          unreadable("a substitution in a here-document", doc.column);
        pos_ = end < line_.size() ? end + 1 : end;
      }
    }
  }

  // ---- the grammar
  void list(bool until_paren, std::size_t open) {
    ListState s;
    while (!failed_) {
      Token token = next();
      if (token.kind == TokenKind::End) break;
      if (token.kind == TokenKind::Newline) {
        newline(s);
      } else if (token.kind == TokenKind::Word) {
        word_token(s, std::move(token.word));
      } else if (operator_token(s, token, until_paren)) {
        return;
      }
    }
    finish(s);
    if (failed_) return;
    if (until_paren) unreadable("a substitution without its `)`", open);
    if (s.parens > 0) unreadable("a `(` without its `)`", column());
    if (s.open_cases > 0) unreadable("a case without its esac", column());
    if (s.mode == Mode::Condition) unreadable("a `[[` without its `]]`", column());
  }

  void finish(ListState& s) {
    if (!s.command.words.empty() || !s.command.assignments.empty() || !s.command.writes.empty())
      out_.commands.push_back(std::move(s.command));
    s.command = {};
    s.after_time = false;
  }

  void newline(ListState& s) {
    if (s.mode == Mode::Condition || s.mode == Mode::CaseIn || s.mode == Mode::CasePattern) return;
    finish(s);
    if (s.mode == Mode::ForHeader) s.mode = Mode::Normal;
  }

  // Returns true when the `)` closing this list's substitution was read.
  bool operator_token(ListState& s, const Token& token, bool until_paren) {
    const std::string& op = token.op;
    if (s.mode == Mode::Condition) return false;  // `<`, `&&`, `(` inside [[ ]] belong to the test
    if (is_redirection(op)) {
      redirection(s, token);
    } else if (op == "(") {
      open_parenthesis(s, token);
    } else if (op == ")") {
      if (s.mode == Mode::CasePattern) {
        s.mode = Mode::Normal;
        return false;
      }
      finish(s);
      if (s.parens > 0) {
        --s.parens;
      } else if (until_paren) {
        return true;
      } else {
        unreadable("a `)` without its `(`", token.column);
      }
    } else if (op == ";;" || op == ";&" || op == ";;&") {
      finish(s);
      if (s.open_cases > 0) {
        s.mode = Mode::CasePattern;
      } else {
        unreadable("`" + op + "` outside a case", token.column);
      }
    } else if (s.mode != Mode::CasePattern) {  // `;` `&` `&&` `||` `|` `|&`; a `|` between patterns
      finish(s);
      if (s.mode == Mode::ForHeader) s.mode = Mode::Normal;
    }
    return false;
  }

  void open_parenthesis(ListState& s, const Token& token) {
    if (s.mode == Mode::CasePattern) return;  // `(pattern)`
    const bool at_command = s.command.words.empty() && s.command.assignments.empty();
    if (at_command && line_.substr(pos_).starts_with("(")) {
      arithmetic(pos_ + 1);  // `(( ... ))`: arithmetic, no command
      return;
    }
    if (at_command) {
      ++s.parens;  // a subshell
      return;
    }
    skip_blanks();
    if (s.command.words.size() == 1 && s.command.assignments.empty() && pos_ < line_.size() && line_[pos_] == ')') {
      ++pos_;  // `name ()`: a function definition; its body follows
      s.command = {};
      return;
    }
    unreadable(s.command.words.empty() ? "an array assignment" : "a `(` after a word", token.column);
  }

  void redirection(ListState& s, const Token& token) {
    Token target = next();
    if (target.kind != TokenKind::Word) {
      unreadable("a redirection without a target", token.column);
      pushed_ = std::move(target);
      return;
    }
    const std::string& op = token.op;
    const Word& w = target.word;
    if (op == "<<" || op == "<<-") {
      here_documents_.push_back({w.text, op == "<<-", !w.quoted, token.column});
      return;
    }
    if (op == "<" || op == "<<<" || op == "<&") return;  // reads
    const bool descriptor = (op == ">&") && !w.computed && !w.text.empty() &&
                            (w.text == "-" || w.text.find_first_not_of("0123456789") == std::string::npos);
    if (descriptor || (w.text == "/dev/null" && !w.computed)) return;
    s.command.writes.push_back(w.text);
  }

  void word_token(ListState& s, Word w) {
    if (header_word(s, w)) return;
    SimpleCommand& command = s.command;
    if (!command.words.empty()) {
      command.words.push_back(std::move(w.text));
      return;
    }
    if (w.assignment) {
      command.assignments.push_back(std::move(w.text));
      return;
    }
    if (!w.quoted && command.assignments.empty() && reserved_word(s, w.text)) return;
    if (w.computed) unreadable("a computed command name `" + w.text + "`", w.column);
    command.words.push_back(std::move(w.text));
  }

  // Words that are not commands: a for or case header, case patterns, a [[ ]] test, a function's name.
  bool header_word(ListState& s, const Word& w) {
    const bool keyword = !w.quoted;
    switch (s.mode) {
      case Mode::Normal: return false;
      case Mode::Condition:
        if (keyword && w.text == "]]") s.mode = Mode::Normal;
        return true;
      case Mode::CaseSubject: s.mode = Mode::CaseIn; return true;
      case Mode::CaseIn:
        if (keyword && w.text == "in") {
          s.mode = Mode::CasePattern;
          ++s.open_cases;
        } else {
          unreadable("a case without `in`", w.column);
        }
        return true;
      case Mode::CasePattern:
        if (keyword && w.text == "esac") {
          --s.open_cases;
          s.mode = Mode::Normal;
        }
        return true;
      case Mode::ForHeader:
        if (keyword && !s.for_in && w.text == "do") s.mode = Mode::Normal;
        if (keyword && w.text == "in") s.for_in = true;
        return true;
      case Mode::FunctionName: s.mode = Mode::Normal; return true;
    }
    return false;
  }

  // A reserved word in command position: true when it was one (it runs nothing by itself).
  bool reserved_word(ListState& s, const std::string& word) {
    static constexpr std::array<std::string_view, 12> kTransparent = {"!",  "{",  "}",    "then", "else",  "elif",
                                                                      "fi", "do", "done", "if",   "while", "until"};
    for (auto reserved : kTransparent)
      if (word == reserved) return true;
    if (s.after_time && word == "-p") return true;
    s.after_time = word == "time";
    if (s.after_time) return true;
    if (word == "for" || word == "select") {
      skip_blanks();
      if (line_.substr(pos_).starts_with("((")) arithmetic(pos_ + 2, true);
      s.mode = Mode::ForHeader;
      s.for_in = false;
    } else if (word == "case") {
      s.mode = Mode::CaseSubject;
    } else if (word == "esac" && s.open_cases > 0) {
      --s.open_cases;
    } else if (word == "function") {
      s.mode = Mode::FunctionName;
    } else if (word == "[[") {
      s.mode = Mode::Condition;
    } else {
      return false;
    }
    return true;
  }

  std::string_view line_;
  int depth_;
  std::size_t offset_;  // columns of a backquoted line count from the outer line's start
  ShellLine& out_;
  std::size_t pos_ = 0;
  bool failed_ = false;  // the rest of the line is not read
  std::optional<Token> pushed_;
  std::vector<HereDocument> here_documents_;
};

std::string join(const std::vector<std::string>& first, const std::vector<std::string>& second) {
  std::string out;
  for (const auto* words : {&first, &second})
    for (const auto& word : *words) {
      if (!out.empty()) out += ' ';
      out += word;
    }
  return out;
}

}  // namespace

std::string SimpleCommand::text() const { return join({}, words); }

std::string SimpleCommand::text_with_assignments() const { return join(assignments, words); }

ShellLine read_shell_line(std::string_view line, int depth) {
  ShellLine out;
  if (depth > kMaxShellNesting) {
    out.unreadable.push_back("a script nested more than " + std::to_string(kMaxShellNesting) + " deep at column 1");
    return out;
  }
  if (line.size() > kMaxShellLine) {
    out.unreadable.push_back("a line longer than " + std::to_string(kMaxShellLine) + " bytes at column 1");
    return out;
  }
  // A program's arguments end at a NUL byte, so what follows one is not what would run.
  if (const auto nul = line.find('\0'); nul != std::string_view::npos) {
    out.unreadable.push_back("a NUL byte at column " + std::to_string(nul + 1));
    return out;
  }
  Reader(line, depth, 0, out).read();
  return out;
}

}  // namespace ptc::commands
