#pragma once
// Pre-tokenization: text cut into the pieces the byte-pair merge works on, by the split regex of each
// encoding as gpt-tokenizer writes it (src/encodingParams/constants.ts), run with RE2.

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>

namespace re2 {
class RE2;
}

namespace ptc::tokens {

enum class SplitKind { o200k, cl100k };

/// The split of the encoding called `name`, or nullopt for a name ptc does not know.
std::optional<SplitKind> split_kind(std::string_view name);

class Splitter {
 public:
  explicit Splitter(SplitKind kind);
  ~Splitter();
  Splitter(Splitter&&) noexcept;
  Splitter& operator=(Splitter&&) noexcept;

  /// Calls `f(piece)` for each piece of `text`, in order; the pieces concatenate to `text`. Each
  /// maximal run of bytes that are not well-formed UTF-8 is one piece, and the UTF-8 between such
  /// runs is split as if it were the whole text (so `$` matches at its end).
  template <class F>
  void for_each_piece(std::string_view text, F&& f) const {
    std::size_t i = 0;
    while (i < text.size()) {
      const std::size_t valid_end = end_of_valid(text, i);
      for (std::size_t pos = i; pos < valid_end;) {
        const std::size_t end = piece_end(text.substr(i, valid_end - i), pos - i) + i;
        f(text.substr(pos, end - pos));
        pos = end;
      }
      const std::size_t invalid_end = end_of_invalid(text, valid_end);
      if (invalid_end > valid_end) f(text.substr(valid_end, invalid_end - valid_end));
      i = invalid_end;
    }
  }

 private:
  static std::size_t end_of_valid(std::string_view text, std::size_t i);
  static std::size_t end_of_invalid(std::string_view text, std::size_t i);
  /// Where the piece that starts at `run[pos]` ends; `run` is well-formed UTF-8.
  std::size_t piece_end(std::string_view run, std::size_t pos) const;

  std::unique_ptr<re2::RE2> re_;
};

}  // namespace ptc::tokens
