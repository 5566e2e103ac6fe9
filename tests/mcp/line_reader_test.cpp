// The stdio framing: lines in any chunking, CRLF, blank lines, and lines beyond the limit.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "line_reader.hpp"

namespace {

struct Collected {
  std::vector<std::string> lines;
  int oversized = 0;
  ptc::mcp::LineReader reader;
  explicit Collected(std::size_t max)
      : reader(
            max, [this](std::string_view l) { lines.emplace_back(l); }, [this] { ++oversized; }) {}
};

TEST(LineReader, SplitsOnNewlinesWhateverTheChunks) {
  const std::string input = "{\"a\":1}\n{\"b\":2}\r\n\n   \n{\"c\":3}\n";
  for (std::size_t chunk = 1; chunk <= input.size(); ++chunk) {
    Collected c(100);
    for (std::size_t i = 0; i < input.size(); i += chunk) c.reader.feed(std::string_view(input).substr(i, chunk));
    c.reader.finish();
    EXPECT_EQ(c.lines, (std::vector<std::string>{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"})) << chunk;
    EXPECT_EQ(c.oversized, 0);
  }
}

TEST(LineReader, ALastLineWithoutNewlineCountsAtTheEnd) {
  Collected c(100);
  c.reader.feed("one\ntwo");
  EXPECT_EQ(c.lines.size(), 1u);
  c.reader.finish();
  EXPECT_EQ(c.lines, (std::vector<std::string>{"one", "two"}));
}

TEST(LineReader, ALineBeyondTheLimitIsReportedOnceAndSkipped) {
  Collected c(8);
  c.reader.feed("short\n");
  c.reader.feed("0123456");
  c.reader.feed("789abcdef");  // now past 8 bytes: reported, the rest of the line skipped
  c.reader.feed("more of the same line");
  c.reader.feed("\nafter\n");
  c.reader.finish();
  EXPECT_EQ(c.lines, (std::vector<std::string>{"short", "after"}));
  EXPECT_EQ(c.oversized, 1);
}

TEST(LineReader, ALineOfExactlyTheLimitIsKept) {
  Collected c(5);
  c.reader.feed("12345\n123456\nok\n");
  EXPECT_EQ(c.lines, (std::vector<std::string>{"12345", "ok"}));
  EXPECT_EQ(c.oversized, 1);
}

}  // namespace
