#pragma once
// Mistakes with PTC_ANSWER: the marker where it means nothing, and answer types that cannot be mapped.

#include <string>
#include <vector>

#include <ptc/annotate.hpp>

namespace golden::errors_answers {

struct Report {
  PTC_ANSWER std::string text;
};

/// Not an answer type: a function.
PTC_ANSWER Report summarize(const std::string& text);

/// A class with a constructor has no fields ptc can fill.
struct PTC_ANSWER Opinion {
  explicit Opinion(std::string text) : text_(std::move(text)) {}

 private:
  std::string text_;
};

struct PTC_ANSWER Pointers {
  const char* title;
  std::vector<Report> reports;
};

}  // namespace golden::errors_answers
