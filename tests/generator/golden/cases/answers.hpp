#pragma once
// Answer types (PTC_ANSWER): codecs and schemas for types an agent answers with, whether or not a tool
// uses them, public in answers.ptc.hpp; what only the tools reach stays in answers.ptc.cpp.

#include <array>
#include <chrono>
#include <cstdint>
#include <deque>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include <ptc/annotate.hpp>

namespace golden::answers {

/// How sure the agent is.
enum class PTC_ANSWER Confidence { kLow PTC_NAME("low"), kMedium PTC_NAME("medium"), kHigh PTC_NAME("high") };

enum class Severity { minor, major };

/// A source a verdict rests on.
struct Evidence {
  std::string url;  ///< Where it was found.
  PTC_PATTERN("^[0-9]{4}-[0-9]{2}-[0-9]{2}$") std::optional<std::string> published;
  Severity severity;
};

/// What the agent concludes; no tool takes or returns it.
struct PTC_ANSWER Verdict {
  bool upheld;
  PTC_DOC("0 to 100") PTC_RANGE(0, 100) int score;
  Confidence confidence;
  std::vector<Evidence> evidence;
  std::optional<std::string> note;
  PTC_RANGE(1, 5) std::optional<std::uint8_t> priority;
  std::chrono::seconds took;
};

/// A discussion: the replies are the thread again, typed :any.
struct PTC_ANSWER Thread {
  std::string title;
  std::vector<Thread> replies;
};

/// One field of each standard kind, each compared with ptc::codec::schema_of of its C++ type.
struct PTC_ANSWER Kinds {
  std::string text;
  bool flag;
  std::int8_t tiny;
  std::uint16_t small;
  int number;
  unsigned long big_unsigned;
  long long wide;
  float ratio;
  double precise;
  std::vector<std::optional<int>> maybe_ints;
  std::list<std::string> names;
  std::deque<bool> flags;
  std::array<int, 3> triple;
  std::set<std::string> tags;
  std::unordered_set<int> ids;
  std::map<std::string, double> scores;
  std::unordered_map<std::string, std::vector<int>> groups;
  std::unique_ptr<std::string> owned;
  std::shared_ptr<int> shared;
  std::variant<std::monostate, int, std::string> either;
  std::pair<int, std::string> two;
  std::tuple<bool, double, std::string> three;
  std::chrono::system_clock::time_point at;
  std::chrono::year_month_day day;
  std::chrono::milliseconds timeout;
  nlohmann::json extra;
};

/// Only a tool takes it: its codec stays in answers.ptc.cpp.
struct Query {
  std::string text;
  PTC_RANGE(1, 20) int limit;
};

/// Finds evidence.
PTC_TOOL() std::vector<Evidence> search(Query query);

/// Rates a piece of evidence.
PTC_TOOL() Confidence rate(Evidence evidence);

}  // namespace golden::answers
