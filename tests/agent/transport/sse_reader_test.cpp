#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "transport/http_transport.hpp"

namespace ptc::agent::detail {

// Beside Event's namespace, where std::vector's == and gtest's printer look for them.
using Event = SseReader::Event;

bool operator==(const Event& a, const Event& b) { return a.event == b.event && a.data == b.data; }

std::ostream& operator<<(std::ostream& out, const Event& e) {
  return out << "{event=\"" << e.event << "\", data=\"" << e.data << "\"}";
}

namespace {

// Feeds the pieces in order, then finish(); the events as they came out, finish()'s last.
std::vector<Event> read_all(const std::vector<std::string>& pieces) {
  SseReader reader;
  std::vector<Event> events;
  for (const std::string& piece : pieces) {
    EXPECT_TRUE(reader.feed(piece, [&](const Event& e) {
      events.push_back(e);
      return true;
    }));
  }
  if (auto last = reader.finish()) events.push_back(*last);
  return events;
}

// Every kind of line ending, a comment, an event type, several data lines, the field forms.
const std::string kStream =
    ": a comment, ignored\n"
    "event: message_start\n"
    "data: {\"a\":1}\n"
    "\n"
    "data: first line\r\n"
    "data: second line\r\n"
    "\r\n"
    "data:no space\r"
    "data:  two spaces\r"
    "\r"
    "event: ping\n"
    "\n"
    "data\n"
    "id: 7\n"
    "retry: 1000\n"
    "\n"
    "event: delta\r\n"
    "data: last\r\n"
    "\r\n";

const std::vector<Event> kExpected = {
    {"message_start", "{\"a\":1}"},
    {"", "first line\nsecond line"},
    {"", "no space\n two spaces"},
    // "event: ping" alone has no data: not dispatched, and its type does not reach the next event.
    {"", ""},
    {"delta", "last"},
};

TEST(SseReader, ReadsAWholeStream) { EXPECT_EQ(read_all({kStream}), kExpected); }

TEST(SseReader, SplitAtEveryPositionGivesTheSameEvents) {
  for (std::size_t split = 0; split <= kStream.size(); ++split) {
    EXPECT_EQ(read_all({kStream.substr(0, split), kStream.substr(split)}), kExpected) << "split at " << split;
  }
}

TEST(SseReader, SplitInThreeAtEveryPairOfPositionsGivesTheSameEvents) {
  for (std::size_t a = 0; a <= kStream.size(); ++a) {
    for (std::size_t b = a; b <= kStream.size(); b += 3) {
      const auto events = read_all({kStream.substr(0, a), kStream.substr(a, b - a), kStream.substr(b)});
      ASSERT_EQ(events, kExpected) << "split at " << a << " and " << b;
    }
  }
}

TEST(SseReader, OneByteAtATimeGivesTheSameEvents) {
  std::vector<std::string> bytes;
  for (char c : kStream) bytes.emplace_back(1, c);
  EXPECT_EQ(read_all(bytes), kExpected);
}

TEST(SseReader, CrThenLfInTheNextPieceEndsOneLineOnly) {
  // Were the \n read as a second line ending, the blank line would dispatch "a" alone.
  EXPECT_EQ(read_all({"data: a\r", "\ndata: b\r", "\n\r", "\n"}), (std::vector<Event>{{"", "a\nb"}}));
}

TEST(SseReader, EventsArriveAsSoonAsTheirBlankLineDoes) {
  SseReader reader;
  std::vector<Event> events;
  const auto collect = [&](const Event& e) {
    events.push_back(e);
    return true;
  };
  ASSERT_TRUE(reader.feed("data: one\n", collect));
  EXPECT_TRUE(events.empty());
  // A lone \r ends the blank line: the event must not wait for a \n that may never come.
  ASSERT_TRUE(reader.feed("\r", collect));
  EXPECT_EQ(events, (std::vector<Event>{{"", "one"}}));
}

TEST(SseReader, FinishReturnsTheEventLeftWithoutItsBlankLine) {
  EXPECT_EQ(read_all({"data: a\n\ndata: b\n"}), (std::vector<Event>{{"", "a"}, {"", "b"}}));
  EXPECT_EQ(read_all({"event: x\ndata: b"}), (std::vector<Event>{{"x", "b"}}));
  EXPECT_EQ(read_all({"data: a\n\n"}), (std::vector<Event>{{"", "a"}}));
  EXPECT_EQ(read_all({"event: x\n"}), std::vector<Event>{});
  EXPECT_EQ(read_all({": only a comment"}), std::vector<Event>{});
  EXPECT_EQ(read_all({}), std::vector<Event>{});
}

TEST(SseReader, FinishResetsTheReader) {
  SseReader reader;
  const auto ignore = [](const Event&) { return true; };
  ASSERT_TRUE(reader.feed("data: a\r", ignore));
  ASSERT_TRUE(reader.finish().has_value());
  EXPECT_FALSE(reader.finish().has_value());
  std::vector<Event> events;
  // The \r of the last stream is forgotten: this \n is a blank line of its own, dispatching nothing.
  ASSERT_TRUE(reader.feed("\ndata: b\n\n", [&](const Event& e) {
    events.push_back(e);
    return true;
  }));
  EXPECT_EQ(events, (std::vector<Event>{{"", "b"}}));
}

TEST(SseReader, ALineLongerThanTheLimitIsRefused) {
  SseReader reader;
  reader.max_event_bytes = 64;
  const auto ignore = [](const Event&) { return true; };
  EXPECT_TRUE(reader.feed("data: " + std::string(40, 'x') + "\n", ignore));
  SseReader other;
  other.max_event_bytes = 64;
  // Without a line break: the line is refused while it grows, not only once it ends.
  EXPECT_FALSE(other.feed("data: " + std::string(100, 'x'), ignore));
}

TEST(SseReader, AnEventLongerThanTheLimitIsRefused) {
  SseReader reader;
  reader.max_event_bytes = 64;
  bool refused = false;
  for (int i = 0; i < 20 && !refused; ++i) {
    refused = !reader.feed("data: 0123456789\n", [](const Event&) { return true; });
  }
  EXPECT_TRUE(refused);
}

TEST(SseReader, StopsWhenTheCallbackSaysSo) {
  SseReader reader;
  int calls = 0;
  EXPECT_FALSE(reader.feed("data: a\n\ndata: b\n\n", [&](const Event&) {
    ++calls;
    return false;
  }));
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace ptc::agent::detail
