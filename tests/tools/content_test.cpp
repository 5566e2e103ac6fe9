// Content blocks a handler attaches: base64 as RFC 4648 gives it, the MCP block shapes, and their way
// through dispatch into the MCP result after the text block.
#include <gtest/gtest.h>

#include <ptc/content.hpp>
#include <ptc/provider.hpp>
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

TEST(Content, AttachedBlocksFollowTheTextInTheMcpResult) {
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
  const auto result = ptc::mcp_call_tool_result(outcome, *registry.find("snap"));
  EXPECT_EQ(result["content"], (json::array({{{"type", "text"}, {"text", "\"a picture\""}},
                                             {{"type", "image"}, {"data", "cHg="}, {"mimeType", "image/png"}},
                                             ptc::Content::resource_text("mem://log", "text/plain", "done").block()})));
  // A failed result keeps what the handler attached: it may be what explains the failure.
  const auto failed = ptc::mcp_call_tool_result(registry.dispatch(session, {"2", "snap", json{{"ok", false}}}));
  EXPECT_EQ(failed["isError"], true);
  EXPECT_EQ(failed["content"].size(), 3u);
  // Invalid arguments never reach the handler: only the report.
  const auto invalid = ptc::mcp_call_tool_result(registry.dispatch(session, {"3", "snap", json{{"ok", "maybe"}}}));
  EXPECT_EQ(invalid["content"].size(), 1u);
}

}  // namespace
