// Content blocks a handler attaches: base64 as RFC 4648 gives it, the MCP block shapes, and their way
// through dispatch into the outcome (the MCP result that lists them: tests/mcp/wire_test.cpp).
#include <gtest/gtest.h>

#include <ptc/content.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>

namespace {

using nlohmann::json;

TEST(Base64, MatchesTheRfcTestVectors) {
  const std::pair<std::string_view, std::string_view> vectors[] = {
      {"", ""},
      {"f", "Zg=="},
      {"fo", "Zm8="},
      {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="},
      {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [in, out] : vectors) EXPECT_EQ(ptc::base64_encode(in), out) << in;
  EXPECT_EQ(ptc::base64_encode(std::string_view("\xff\xfe\x00", 3)), "//4A");
  EXPECT_EQ(ptc::base64_encode(std::string_view("\xfb\xff", 2)), "+/8=");
}

TEST(Content, BlocksHaveTheMcpShapes) {
  EXPECT_EQ(ptc::Content::image("abc", "image/png").block(),
            (json{{"type", "image"}, {"data", "YWJj"}, {"mimeType", "image/png"}}));
  EXPECT_EQ(ptc::Content::audio("abcd", "audio/wav").block(),
            (json{{"type", "audio"}, {"data", "YWJjZA=="}, {"mimeType", "audio/wav"}}));
  EXPECT_EQ(ptc::Content::resource_text("file:///a.txt", "text/plain", "hi").block(),
            (json{{"type", "resource"},
                  {"resource", {{"uri", "file:///a.txt"}, {"mimeType", "text/plain"}, {"text", "hi"}}}}));
  EXPECT_EQ(ptc::Content::resource_blob("file:///a.bin", "application/octet-stream", "ab").block(),
            (json{
                {"type", "resource"},
                {"resource", {{"uri", "file:///a.bin"}, {"mimeType", "application/octet-stream"}, {"blob", "YWI="}}}}));
}

TEST(Content, AttachedBlocksReachTheOutcomeInOrder) {
  ptc::ToolRegistry registry;
  registry.add(ptc::make_tool("snap", "Takes a picture.", "(ok :bool) -> :string",
                              [](const json& args, ptc::ToolContext& context) {
                                context.attach(ptc::Content::image("px", "image/png"));
                                context.attach(ptc::Content::resource_text("mem://log", "text/plain", "done"));
                                return args["ok"].get<bool>() ? ptc::ToolResult<json>::ok("a picture")
                                                              : ptc::ToolResult<json>::error("no picture");
                              }));
  ptc::Session session;
  const auto outcome = registry.dispatch(session, {"1", "snap", json{{"ok", true}}});
  ASSERT_EQ(outcome.attachments.size(), 2u);
  EXPECT_EQ(outcome.attachments[0].block(), ptc::Content::image("px", "image/png").block());
  EXPECT_EQ(outcome.attachments[1].block(), ptc::Content::resource_text("mem://log", "text/plain", "done").block());
  // A failed result keeps what the handler attached: it may be what explains the failure.
  EXPECT_EQ(registry.dispatch(session, {"2", "snap", json{{"ok", false}}}).attachments.size(), 2u);
  // Invalid arguments never reach the handler.
  EXPECT_TRUE(registry.dispatch(session, {"3", "snap", json{{"ok", "maybe"}}}).attachments.empty());
}

}  // namespace
