#include "split.hpp"

#include <stdexcept>
#include <string>

#include <re2/re2.h>

#include "utf8.hpp"

namespace ptc::tokens {
namespace {

// The patterns are gpt-tokenizer's (JavaScript, flags "gu"), rewritten for RE2, which matches
// alternatives leftmost-first as a backtracking engine does, so each alternative below picks the same
// text it picks there. Three rewrites were needed:
//
// 1. `\s` is spelled out as JavaScript's set (kJsSpaceClass): RE2's `\s` is ASCII only, and U+00A0 or
//    U+3000 must split as they do in JavaScript.
//
// 2. RE2 has no lookahead. Both patterns end their whitespace alternatives with `\s+(?!\S)` followed by
//    a catch-all. At a whitespace character that no earlier alternative took, let W be the whitespace
//    run from there. `\s+(?!\S)` backtracks until the next character is whitespace or the end: it
//    takes all of W at the end of the text, W minus its last character when W is followed by a
//    non-space and has two or more characters, and fails on a single character, which the catch-all
//    then takes alone. The earlier alternative that takes W up to its last \r or \n
//    (`\s*[\r\n]+` in o200k, `\s*[\r\n]` in cl100k) wins whenever W holds a line break, and cl100k's
//    `\s+$` wins before it when W reaches the end. So RE2 is given `\s+` in place of the last two
//    alternatives, and piece_end gives back the last character of a match that ends in a space other
//    than \r or \n before the end: only the `\s+` alternative ends that way (every other one ends in a
//    letter, mark, digit, symbol, '/', \r or \n), and its match is then all of W, of two or more
//    characters when its last one does not start it.
//
// 3. Contractions are spelled with explicit cases ('[sS]...), as gpt-tokenizer spells them. tiktoken's
//    `(?i:...)` folds case by Unicode, so it also matches "'ſ" (U+017F, long s); gpt-tokenizer does not.
//
// tiktoken's cl100k pattern has possessive quantifiers (`?+`, `++`, `*+`), which gpt-tokenizer drops,
// as we do: none of them can change a match. In `[^\r\n\p{L}\p{N}]?+\p{L}++` giving back the optional
// character would leave \p{L}+ to start on it, and it is not a letter; `\p{L}++`, `\p{N}{1,3}+` and
// `[\r\n]*+` end their alternative, and `[^\s\p{L}\p{N}]++` is followed only by `[\r\n]*`, which
// cannot fail, so none is ever asked to give back; in `\s++$` a shorter run ends before a space, where
// `$` cannot match.

std::string space() { return "[" + std::string(kJsSpaceClass) + "]"; }
std::string not_space_letter_number() { return "[^" + std::string(kJsSpaceClass) + "\\p{L}\\p{N}]"; }
// One class for the one-letter contractions: RE2 2022-06-01 factors `[sS]|[tT]` into case-folded
// literals, and its folding takes U+017F for 's' ("'ſ" matched; tests/tokens/split_test.cpp).
constexpr std::string_view kContraction = "'(?:[sSdDmMtT]|[lL][lL]|[vV][eE]|[rR][eE])";

std::string o200k_pattern() {
  const std::string upper = "[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]";
  const std::string lower = "[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]";
  const std::string contraction = "(?:" + std::string(kContraction) + ")?";
  return "[^\\r\\n\\p{L}\\p{N}]?" + upper + "*" + lower + "+" + contraction +   //
         "|[^\\r\\n\\p{L}\\p{N}]?" + upper + "+" + lower + "*" + contraction +  //
         "|\\p{N}{1,3}" +                                                       //
         "| ?" + not_space_letter_number() + "+[\\r\\n/]*" +                    //
         "|" + space() + "*[\\r\\n]+" +                                         //
         "|" + space() + "+";
}

std::string cl100k_pattern() {
  return std::string(kContraction) +                         //
         "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+" +                  //
         "|\\p{N}{1,3}" +                                    //
         "| ?" + not_space_letter_number() + "+[\\r\\n]*" +  //
         "|" + space() + "+$" +                              //
         "|" + space() + "*[\\r\\n]" +                       //
         "|" + space() + "+";
}

}  // namespace

std::optional<SplitKind> split_kind(std::string_view name) {
  if (name == "o200k_base") return SplitKind::o200k;
  if (name == "cl100k_base") return SplitKind::cl100k;
  return std::nullopt;
}

Splitter::Splitter(SplitKind kind) {
  RE2::Options options;
  options.set_log_errors(false);
  // The Unicode classes make large DFAs; with too little memory RE2 falls back to its slower NFA.
  options.set_max_mem(std::int64_t{64} << 20);
  re_ = std::make_unique<RE2>(kind == SplitKind::o200k ? o200k_pattern() : cl100k_pattern(), options);
  if (!re_->ok()) throw std::logic_error("ptc::tokens: split pattern rejected by RE2: " + re_->error());
}

Splitter::~Splitter() = default;
Splitter::Splitter(Splitter&&) noexcept = default;
Splitter& Splitter::operator=(Splitter&&) noexcept = default;

std::size_t Splitter::end_of_valid(std::string_view text, std::size_t i) {
  while (i < text.size()) {
    const std::size_t len = utf8_length(text, i);
    if (len == 0) break;
    i += len;
  }
  return i;
}

std::size_t Splitter::end_of_invalid(std::string_view text, std::size_t i) {
  while (i < text.size() && utf8_length(text, i) == 0) ++i;
  return i;
}

std::size_t Splitter::piece_end(std::string_view run, std::size_t pos) const {
  re2::StringPiece match;
  if (!re_->Match(run, pos, run.size(), RE2::ANCHOR_START, &match, 1) || match.empty()) {
    // Cannot happen: some alternative matches every character. One character, to move on regardless.
    return pos + utf8_length(run, pos);
  }
  std::size_t end = pos + match.size();
  if (end == run.size()) return end;
  std::size_t last = end - 1;
  while ((static_cast<unsigned char>(run[last]) & 0xC0) == 0x80) --last;
  const char32_t cp = utf8_decode(run, last, end - last);
  if (last > pos && cp != '\r' && cp != '\n' && is_js_space(cp)) return last;  // `\s+(?!\S)`, see above
  return end;
}

}  // namespace ptc::tokens
