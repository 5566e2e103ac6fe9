// SequentialDependencyPolicy and ReadBeforeWritePolicy, rule by rule, through real dispatch.
#include <gtest/gtest.h>

#include <ptc/error.hpp>
#include <ptc/filesystem.hpp>
#include <ptc/policy.hpp>
#include <ptc/registry.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_result.hpp>
#include <ptc/uuid.hpp>

namespace {

using nlohmann::json;
using ptc::CallStatus;
using ptc::ToolResult;

ptc::JsonHandler answer(bool succeed) {
  return [succeed](const json&, ptc::ToolContext&) {
    return succeed ? ToolResult<json>::ok(nullptr) : ToolResult<json>::error("it broke");
  };
}

class Sequential : public ::testing::Test {
 protected:
  Sequential() {
    auto policy = std::make_shared<ptc::SequentialDependencyPolicy>(std::map<std::string, std::set<std::string>>{
        {"deploy", {"test", "build"}}, {"test", {"build"}}});
    for (const char* name : {"build", "test", "deploy", "lint"})
      registry.add(ptc::make_tool(name, "A step.", "(ok :bool?) -> :nil",
                                  [](const json& args, ptc::ToolContext&) {
                                    // An absent optional parameter is null.
                                    return args["ok"] != false ? ToolResult<json>::ok(nullptr)
                                                               : ToolResult<json>::error("step failed");
                                  }),
                   {policy});
  }
  ptc::ToolOutcome call(const std::string& name, json args = json::object()) {
    return registry.dispatch(session, ptc::ToolCall{"", name, std::move(args)});
  }
  ptc::ToolRegistry registry;
  ptc::Session session;
};

TEST_F(Sequential, DeniesWithTheMissingPrerequisitesSorted) {
  auto out = call("deploy");
  EXPECT_EQ(out.status, CallStatus::Denied);
  EXPECT_EQ(out.result.message, "Tool 'deploy' requires: build, test");
}

TEST_F(Sequential, NamesOnlyWhatIsStillMissing) {
  ASSERT_EQ(call("build").status, CallStatus::Succeeded);
  EXPECT_EQ(call("deploy").result.message, "Tool 'deploy' requires: test");
  ASSERT_EQ(call("test").status, CallStatus::Succeeded);
  EXPECT_EQ(call("deploy").status, CallStatus::Succeeded);
}

TEST_F(Sequential, OnlySuccessfulCallsCount) {
  EXPECT_EQ(call("build", json{{"ok", false}}).status, CallStatus::Failed);
  EXPECT_EQ(call("test").result.message, "Tool 'test' requires: build");
}

TEST_F(Sequential, DeniedCallsDoNotCountEither) {
  EXPECT_EQ(call("test").status, CallStatus::Denied);
  ASSERT_EQ(call("build").status, CallStatus::Succeeded);
  EXPECT_EQ(call("deploy").result.message, "Tool 'deploy' requires: test");
}

TEST_F(Sequential, ToolsWithoutDependenciesAlwaysRun) { EXPECT_EQ(call("lint").status, CallStatus::Succeeded); }

TEST_F(Sequential, ProgressIsPerSession) {
  ASSERT_EQ(call("build").status, CallStatus::Succeeded);
  ptc::Session other;
  auto out = registry.dispatch(other, ptc::ToolCall{"", "test", json::object()});
  EXPECT_EQ(out.result.message, "Tool 'test' requires: build");
}

TEST_F(Sequential, HandlerNeverRunsWhenDenied) {
  int runs = 0;
  ptc::ToolRegistry r;
  r.add(ptc::make_tool("deploy", "Deploy.", "() -> :nil",
                       [&](const json&, ptc::ToolContext&) {
                         ++runs;
                         return ToolResult<json>::ok(nullptr);
                       }),
        {std::make_shared<ptc::SequentialDependencyPolicy>(std::map<std::string, std::set<std::string>>{
            {"deploy", {"build"}}})});
  EXPECT_EQ(r.dispatch(session, ptc::ToolCall{"", "deploy", json::object()}).status, CallStatus::Denied);
  EXPECT_EQ(runs, 0);
}

// ---- read before write --------------------------------------------------------------------------

class ReadBeforeWrite : public ::testing::Test {
 protected:
  ReadBeforeWrite() { session.resources().add<ptc::Filesystem>(fs); }

  void install(ptc::ReadBeforeWritePolicy::Options options = {}) {
    auto policy = std::make_shared<ptc::ReadBeforeWritePolicy>(std::move(options));
    registry.add_policy(policy);
    registry.add(ptc::make_tool("read_file", "Read a file.", "(path :string) -> :string",
                                [](const json& args, ptc::ToolContext& c) {
                                  return ToolResult<json>::ok(c.filesystem().read(args["path"].get<std::string>()));
                                }));
    auto write = [](const json& args, ptc::ToolContext& c) {
      const std::string path = args.contains("path") ? args["path"] : args["file_path"];
      c.filesystem().write(path, args["content"].get<std::string>());
      return ToolResult<json>::ok(nullptr, "written");
    };
    registry.add(ptc::make_tool("write_file", "Write a file.", "(path :string, content :string) -> :nil", write));
    registry.add(ptc::make_tool("edit_file", "Edit a file.", "(file_path :string, content :string) -> :nil", write));
    registry.add(ptc::make_tool("cat", "Read a file.", "(path :string) -> :string",
                                [](const json& args, ptc::ToolContext& c) {
                                  return ToolResult<json>::ok(c.filesystem().read(args["path"].get<std::string>()));
                                }));
    registry.add(ptc::make_tool("save", "Write a file.", "(path :string, content :string) -> :nil", write));
  }

  ptc::ToolOutcome call(const std::string& name, json args) {
    return registry.dispatch(session, ptc::ToolCall{"", name, std::move(args)});
  }
  ptc::ToolOutcome write(const std::string& tool, const std::string& path) {
    return call(tool, json{{tool == "edit_file" ? "file_path" : "path", path}, {"content", "new"}});
  }

  ptc::ToolRegistry registry;
  ptc::Session session;
  std::shared_ptr<ptc::InMemoryFilesystem> fs = [] {
    auto f = std::make_shared<ptc::InMemoryFilesystem>();
    f->write("notes.txt", "old");
    f->write("docs/guide.md", "old");
    return f;
  }();
};

TEST_F(ReadBeforeWrite, OverwritingAnUnreadFileIsDenied) {
  install();
  auto out = write("write_file", "notes.txt");
  EXPECT_EQ(out.status, CallStatus::Denied);
  EXPECT_EQ(out.result.message, "File 'notes.txt' must be read before overwriting.");
  EXPECT_EQ(fs->read("notes.txt"), "old");
}

TEST_F(ReadBeforeWrite, ReadingFirstAllowsTheWrite) {
  install();
  ASSERT_EQ(call("read_file", json{{"path", "notes.txt"}}).status, CallStatus::Succeeded);
  EXPECT_EQ(write("write_file", "notes.txt").status, CallStatus::Succeeded);
  EXPECT_EQ(fs->read("notes.txt"), "new");
}

TEST_F(ReadBeforeWrite, CreatingANewFileIsAllowed) {
  install();
  EXPECT_EQ(write("write_file", "fresh.txt").status, CallStatus::Succeeded);
  EXPECT_EQ(fs->read("fresh.txt"), "new");
}

TEST_F(ReadBeforeWrite, EditFileIsAWriteToolAndUsesFilePath) {
  install();
  EXPECT_EQ(write("edit_file", "docs/guide.md").result.message,
            "File 'docs/guide.md' must be read before overwriting.");
  ASSERT_EQ(call("read_file", json{{"path", "docs/guide.md"}}).status, CallStatus::Succeeded);
  EXPECT_EQ(write("edit_file", "docs/guide.md").status, CallStatus::Succeeded);
}

// The attack: a tool taking `file_path` is given an extra `path` naming a file that was read.
TEST_F(ReadBeforeWrite, AnUndeclaredArgumentNeverSteersThePolicyInAnyMode) {
  install();
  ASSERT_EQ(call("read_file", json{{"path", "notes.txt"}}).status, CallStatus::Succeeded);
  for (ptc::Mode mode : {ptc::Mode::Enabled, ptc::Mode::WarnOnly, ptc::Mode::Disabled}) {
    ptc::DispatchOptions options;
    options.mode = mode;
    auto out = registry.dispatch(
        session,
        ptc::ToolCall{"", "edit_file", json{{"path", "notes.txt"}, {"file_path", "docs/guide.md"}, {"content", "x"}}},
        options);
    EXPECT_EQ(out.status, CallStatus::Denied) << ptc::mode_name(mode);
    EXPECT_EQ(out.result.message, "File 'docs/guide.md' must be read before overwriting.");
  }
  EXPECT_EQ(fs->read("docs/guide.md"), "old");
}

TEST_F(ReadBeforeWrite, APathParameterCanBeNamedPerTool) {
  ptc::ReadBeforeWritePolicy::Options options;
  options.write_tools = {"move"};
  options.path_parameters = {{"move", "target"}};
  auto policy = std::make_shared<ptc::ReadBeforeWritePolicy>(options);
  auto move = ptc::make_tool("move", "Move a file.", "(source :string, target :string) -> :nil");
  EXPECT_EQ(policy->path_parameter(move), "target");
  options.path_parameters = {{"move", "undeclared"}};
  EXPECT_EQ(ptc::ReadBeforeWritePolicy(options).path_parameter(move), std::nullopt);
}

TEST_F(ReadBeforeWrite, AFailedReadDoesNotCount) {
  install();
  EXPECT_EQ(call("read_file", json{{"path", "missing.txt"}}).status, CallStatus::HandlerException);
  fs->write("missing.txt", "appeared later");
  EXPECT_EQ(write("write_file", "missing.txt").status, CallStatus::Denied);
}

TEST_F(ReadBeforeWrite, LeadingSlashIsStripped) {
  install();
  EXPECT_EQ(write("write_file", "/notes.txt").result.message, "File 'notes.txt' must be read before overwriting.");
  ASSERT_EQ(call("read_file", json{{"path", "/notes.txt"}}).status, CallStatus::Succeeded);
  EXPECT_EQ(write("write_file", "notes.txt").status, CallStatus::Succeeded);
}

TEST_F(ReadBeforeWrite, MountPointIsStripped) {
  install({.mount_point = "/workspace"});
  EXPECT_EQ(write("write_file", "/workspace/notes.txt").result.message,
            "File 'notes.txt' must be read before overwriting.");
  ASSERT_EQ(call("read_file", json{{"path", "notes.txt"}}).status, CallStatus::Succeeded);
  EXPECT_EQ(write("write_file", "/workspace/notes.txt").status, CallStatus::Succeeded);
}

TEST_F(ReadBeforeWrite, MountPointMatchesWholeSegmentsOnly) {
  ptc::ReadBeforeWritePolicy policy({.mount_point = "/workspace"});
  EXPECT_EQ(policy.path_of(json{{"path", "/workspace/a/b.txt"}}, "path"), "a/b.txt");
  EXPECT_EQ(policy.path_of(json{{"path", "workspace/a"}}, "path"), "a");
  EXPECT_EQ(policy.path_of(json{{"path", "/workspaces/a"}}, "path"), "workspaces/a");
  EXPECT_EQ(policy.path_of(json{{"path", "./a//b/../c"}}, "path"), "a/c");
  EXPECT_EQ(policy.path_of(json{{"file_path", "x"}}, "file_path"), "x");
  EXPECT_EQ(policy.path_of(json{{"other", "x"}}, "path"), std::nullopt);
  EXPECT_EQ(policy.path_of(json{{"path", 7}}, "path"), std::nullopt);
  EXPECT_EQ(policy.path_of(json{{"path", "../../etc/passwd"}}, "path"), std::nullopt);
}

TEST_F(ReadBeforeWrite, ReadsArePerSession) {
  install();
  ASSERT_EQ(call("read_file", json{{"path", "notes.txt"}}).status, CallStatus::Succeeded);
  ptc::Session other;
  other.resources().add<ptc::Filesystem>(fs);
  auto out = registry.dispatch(other, ptc::ToolCall{"", "write_file", json{{"path", "notes.txt"}, {"content", "x"}}});
  EXPECT_EQ(out.status, CallStatus::Denied);
}

TEST_F(ReadBeforeWrite, CustomToolSets) {
  install({.read_tools = {"cat"}, .write_tools = {"save"}, .mount_point = ""});
  EXPECT_EQ(write("write_file", "notes.txt").status, CallStatus::Succeeded) << "no longer a write tool";
  EXPECT_EQ(write("save", "docs/guide.md").status, CallStatus::Denied);
  ASSERT_EQ(call("read_file", json{{"path", "docs/guide.md"}}).status, CallStatus::Succeeded);
  EXPECT_EQ(write("save", "docs/guide.md").status, CallStatus::Denied) << "read_file is no longer a read tool";
  ASSERT_EQ(call("cat", json{{"path", "docs/guide.md"}}).status, CallStatus::Succeeded);
  EXPECT_EQ(write("save", "docs/guide.md").status, CallStatus::Succeeded);
}

TEST_F(ReadBeforeWrite, WithoutAFilesystemEveryFileCountsAsExisting) {
  install();
  ptc::Session bare;
  auto out =
      registry.dispatch(bare, ptc::ToolCall{"", "write_file", json{{"path", "brand-new.txt"}, {"content", "x"}}});
  EXPECT_EQ(out.status, CallStatus::Denied);
  EXPECT_EQ(out.result.message, "File 'brand-new.txt' must be read before overwriting.");
}

TEST_F(ReadBeforeWrite, AFailedWriteIsRolledBack) {
  install();
  registry.add(ptc::make_tool("write_then_fail", "Writes, then fails.", "(path :string) -> :nil",
                              [](const json& args, ptc::ToolContext& c) -> ToolResult<json> {
                                c.filesystem().write(args["path"].get<std::string>(), "half");
                                throw std::runtime_error("crashed mid-way");
                              }));
  auto out = call("write_then_fail", json{{"path", "fresh.txt"}});
  EXPECT_EQ(out.result.message, "Tool 'write_then_fail' execution failed: crashed mid-way");
  EXPECT_FALSE(fs->exists("fresh.txt"));
}

TEST_F(ReadBeforeWrite, HostFilesystemIsRolledBackToo) {
  const auto root = std::filesystem::temp_directory_path() / ("ptc-policy-" + ptc::make_uuid());
  std::filesystem::create_directories(root);
  {
    auto host = std::make_shared<ptc::HostFilesystem>(root);
    host->write("keep.txt", "original");
    ptc::Session s;
    s.resources().add<ptc::Filesystem>(host);
    install();
    registry.add(ptc::make_tool("clobber", "Overwrites, then fails.", "() -> :nil",
                                [](const json&, ptc::ToolContext& c) -> ToolResult<json> {
                                  c.filesystem().write("keep.txt", "clobbered");
                                  c.filesystem().write("junk.txt", "junk");
                                  return ToolResult<json>::error("gave up");
                                }));
    auto out = registry.dispatch(s, ptc::ToolCall{"", "clobber", json::object()});
    EXPECT_EQ(out.status, CallStatus::Failed);
    EXPECT_EQ(host->read("keep.txt"), "original");
    EXPECT_FALSE(host->exists("junk.txt"));
    // Successful calls release their snapshot, so the journal does not grow with the session.
    for (int i = 0; i < 5; ++i)
      ASSERT_EQ(registry
                    .dispatch(s, ptc::ToolCall{"", "write_file",
                                               json{{"path", "new" + std::to_string(i)}, {"content", "x"}}})
                    .status,
                CallStatus::Succeeded);
    EXPECT_EQ(host->journal_size(), 0u);
  }
  std::filesystem::remove_all(root);
}

TEST_F(ReadBeforeWrite, OtherToolsAreNotAffected) {
  install();
  registry.add(ptc::make_tool("touch", "Touch.", "(path :string) -> :nil", answer(true)));
  EXPECT_EQ(call("touch", json{{"path", "notes.txt"}}).status, CallStatus::Succeeded);
}

}  // namespace
