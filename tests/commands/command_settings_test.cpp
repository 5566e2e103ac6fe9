// settings.json: the global and project files, the merge, every validation rule, and errors that name
// the file, the key and the rule.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <ptc/command_settings.hpp>

#include "command_test_support.hpp"

namespace {

using nlohmann::json;
using ptc::LogLevel;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The message for one settings object, or "" when it is valid.
std::string error_of(const json& settings) {
  auto r = ptc::settings_from_json(settings);
  return r ? "" : r.error().message;
}

TEST(CommandSettings, DefaultsWithoutFiles) {
  ptc::test::TempDir dir;
  auto s = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->bus_name, "jido_code_bus");
  EXPECT_THAT(s->logger_levels, ElementsAre(LogLevel::Debug));
  EXPECT_EQ(s->permissions, ptc::Permissions{});
  EXPECT_EQ(s->default_model, std::nullopt);
  EXPECT_EQ(s->max_concurrent, 5u);
  EXPECT_EQ(s->schema, std::nullopt);
  EXPECT_EQ(s->version, std::nullopt);
}

TEST(CommandSettings, ReadsEveryImplementedKey) {
  auto s = ptc::settings_from_json(json::parse(R"js({
    "$schema": "https://example.com/settings.schema.json",
    "version": "1.2.3",
    "signal_bus": {"name": "team_bus", "middleware": [{"module": "Jido.Signal.Bus.Middleware.Logger", "opts": {"level": "warn"}}]},
    "permissions": {"allow": ["Read"], "deny": ["Bash(rm:*)"], "ask": ["Write"]},
    "commands": {"default_model": "sonnet", "max_concurrent": 2}})js"));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->schema, "https://example.com/settings.schema.json");
  EXPECT_EQ(s->version, "1.2.3");
  EXPECT_EQ(s->bus_name, "team_bus");
  EXPECT_THAT(s->logger_levels, ElementsAre(LogLevel::Warning));
  EXPECT_EQ(s->permissions, (ptc::Permissions{{"Read"}, {"Bash(rm:*)"}, {"Write"}}));
  EXPECT_EQ(s->default_model, "sonnet");
  EXPECT_EQ(s->max_concurrent, 2u);
}

TEST(CommandSettings, ProjectWinsObjectsMergeAndListsAreReplaced) {
  ptc::test::TempDir dir;
  dir.write("global/settings.json", R"js({"permissions": {"allow": ["Read", "Grep"], "deny": ["Bash(rm:*)"]},
                                         "commands": {"default_model": "haiku", "max_concurrent": 3}})js");
  dir.write("project/settings.json", R"js({"permissions": {"allow": ["Write"]}, "commands": {"max_concurrent": 1}})js");
  auto s = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_THAT(s->permissions.allow, ElementsAre("Write"));
  EXPECT_THAT(s->permissions.deny, ElementsAre("Bash(rm:*)"));
  EXPECT_EQ(s->default_model, "haiku");
  EXPECT_EQ(s->max_concurrent, 1u);
}

TEST(CommandSettings, ASettingsFileThatIsNotARegularFileIsRefusedWithoutReadingIt) {
  ptc::test::TempDir dir;
  std::filesystem::create_directories(dir / "project");
  std::filesystem::create_symlink("/dev/zero", dir / "project/settings.json");  // a cloned repository can carry this
  auto zero = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().message,
            (dir / "project/settings.json").string() + ": not a regular file (a character device)");
  std::filesystem::remove(dir / "project/settings.json");
  ASSERT_EQ(::mkfifo((dir / "project/settings.json").c_str(), 0600), 0);
  auto fifo = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_FALSE(fifo);
  EXPECT_EQ(fifo.error().message, (dir / "project/settings.json").string() + ": not a regular file (a FIFO)");
  std::filesystem::remove(dir / "project/settings.json");
  std::filesystem::create_directories(dir / "project/settings.json");
  auto directory = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_FALSE(directory);
  EXPECT_EQ(directory.error().message, (dir / "project/settings.json").string() + ": not a regular file (a directory)");
}

TEST(CommandSettings, ColonKeysAreTheSameKeyAcrossFiles) {
  ptc::test::TempDir dir;
  dir.write("global/settings.json", R"js({":commands": {"max_concurrent": 3, "default_model": "haiku"}})js");
  dir.write("project/settings.json", R"js({"commands": {":max_concurrent": 4}})js");
  auto s = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_EQ(s->max_concurrent, 4u);
  EXPECT_EQ(s->default_model, "haiku");
}

TEST(CommandSettings, PermissionListsAreTrimmedEmptiesDroppedAndDeduplicatedInOrder) {
  auto s = ptc::settings_from_json(json::parse(R"js({"permissions": {
      "allow": [" Read ", "", "Bash(git diff:*)", "Read", "   ", "Write"],
      "deny": "Bash(rm:*), ,Bash(rm:*) ,WebFetch",
      "ask": []}})js"));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_THAT(s->permissions.allow, ElementsAre("Read", "Bash(git diff:*)", "Write"));
  EXPECT_THAT(s->permissions.deny, ElementsAre("Bash(rm:*)", "WebFetch"));
  EXPECT_TRUE(s->permissions.ask.empty());
  EXPECT_THAT(ptc::normalize_permission_list({" a", "b ", "a", "", "c"}), ElementsAre("a", "b", "c"));
}

TEST(CommandSettings, PermissionEntriesMustBeStrings) {
  EXPECT_EQ(error_of({{"permissions", {{"allow", {"Read", 3}}}}}), "permissions.allow[1]: must be a string");
  EXPECT_EQ(error_of({{"permissions", {{"deny", true}}}}),
            "permissions.deny: must be a list of strings or a comma-separated string");
  EXPECT_EQ(error_of({{"permissions", {{"ask", nullptr}}}}),
            "permissions.ask: must be a list of strings or a comma-separated string");
  EXPECT_EQ(error_of({{"permissions", {{"allow", {{"Read"}}}}}}), "permissions.allow[0]: must be a string");
  EXPECT_EQ(error_of({{"permissions", "Read"}}), "permissions: must be an object");
}

TEST(CommandSettings, UnknownTopLevelKeysAreRejected) {
  EXPECT_EQ(error_of({{"hooks", json::object()}}),
            "hooks: unknown key; expected $schema, version, signal_bus, permissions or commands");
  EXPECT_EQ(error_of({{"1", 1}}),
            "[\"1\"]: unknown key; expected $schema, version, signal_bus, permissions or commands");
}

TEST(CommandSettings, UnknownNestedKeysAreRejected) {
  EXPECT_EQ(error_of({{"signal_bus", {{"size", 3}}}}), "signal_bus.size: unknown key; expected name or middleware");
  EXPECT_EQ(error_of({{"permissions", {{"always", json::array()}}}}),
            "permissions.always: unknown key; expected allow, deny or ask");
  EXPECT_EQ(error_of({{"commands", {{"timeout", 3}}}}),
            "commands.timeout: unknown key; expected default_model or max_concurrent");
}

TEST(CommandSettings, ConflictingKeysAreRejectedAtTheTopAndInNestedObjects) {
  EXPECT_EQ(error_of({{"commands", json::object()}, {":commands", json::object()}}),
            R"(conflicting keys ":commands" and "commands")");
  EXPECT_EQ(error_of({{"commands", {{"max_concurrent", 1}, {":max_concurrent", 2}}}}),
            R"(commands: conflicting keys ":max_concurrent" and "max_concurrent")");
  EXPECT_EQ(error_of({{"signal_bus", {{"middleware", {{{"module", "x"}, {":module", "y"}}}}}}}),
            R"(signal_bus.middleware[0]: conflicting keys ":module" and "module")");
}

TEST(CommandSettings, RepeatedKeysInTheFileAreRejectedWithTheFileName) {
  ptc::test::TempDir dir;
  auto file = dir.write("project/settings.json", R"js({"commands": {"max_concurrent": 1, "max_concurrent": 2}})js");
  auto s = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, file.string() + R"(: invalid JSON: duplicate key "max_concurrent" at commands)");
}

TEST(CommandSettings, SchemaMustBeANonEmptyString) {
  EXPECT_EQ(error_of({{"$schema", ""}}), "$schema: must be a non-empty string");
  EXPECT_EQ(error_of({{"$schema", "  "}}), "$schema: must be a non-empty string");
  EXPECT_EQ(error_of({{"$schema", 7}}), "$schema: must be a non-empty string");
  EXPECT_EQ(error_of({{"$schema", "./schema.json"}}), "");
}

TEST(CommandSettings, VersionMustBeSemVer) {
  for (const char* ok : {"0.0.0", "1.2.3", "10.20.30", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-0.3.7", "1.0.0+build.5",
                         "1.0.0-rc.1+sha.5114f85"})
    EXPECT_EQ(error_of({{"version", ok}}), "") << ok;
  for (json bad : {json("1.2"), json("1.2.3.4"), json("01.2.3"), json("1.2.3-"), json("1.2.3-01"), json("1.2.3+"),
                   json("v1.2.3"), json(" 1.2.3"), json("1.2.3-a..b"), json(1), json(nullptr)})
    EXPECT_EQ(error_of({{"version", bad}}), "version: must be a SemVer version such as 1.2.3") << bad.dump();
}

TEST(CommandSettings, BusNameMustBeANonEmptyString) {
  EXPECT_EQ(error_of({{"signal_bus", {{"name", ""}}}}), "signal_bus.name: must be a non-empty string");
  EXPECT_EQ(error_of({{"signal_bus", {{"name", ":"}}}}), "signal_bus.name: must be a non-empty string");
  EXPECT_EQ(error_of({{"signal_bus", {{"name", 5}}}}), "signal_bus.name: must be a non-empty string");
  auto s = ptc::settings_from_json({{"signal_bus", {{"name", " :my_bus "}}}});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->bus_name, "my_bus");  // an atom written the Elixir way names the same bus
}

TEST(CommandSettings, MiddlewareMustBeTheLoggerWithOnlyALevel) {
  EXPECT_EQ(error_of({{"signal_bus", {{"middleware", "Logger"}}}}), "signal_bus.middleware: must be a list");
  EXPECT_EQ(error_of({{"signal_bus", {{"middleware", {"Logger"}}}}}), "signal_bus.middleware[0]: must be an object");
  EXPECT_EQ(error_of({{"signal_bus", {{"middleware", {json::object()}}}}}),
            "signal_bus.middleware[0]: module is required");
  EXPECT_EQ(
      error_of({{"signal_bus", {{"middleware", {{{"module", "Jido.Signal.Bus.Middleware.Tracer"}}}}}}}),
      "signal_bus.middleware[0].module: unsupported middleware \"Jido.Signal.Bus.Middleware.Tracer\"; the only one "
      "is Jido.Signal.Bus.Middleware.Logger");
  EXPECT_EQ(
      error_of({{"signal_bus", {{"middleware", {{{"module", "Jido.Signal.Bus.Middleware.Logger"}, {"when", 1}}}}}}}),
      "signal_bus.middleware[0].when: unknown key; expected module or opts");
  EXPECT_EQ(
      error_of({{"signal_bus", {{"middleware", {{{"module", "Jido.Signal.Bus.Middleware.Logger"}, {"opts", 1}}}}}}}),
      "signal_bus.middleware[0].opts: must be an object");
  EXPECT_EQ(
      error_of({{"signal_bus",
                 {{"middleware", {{{"module", "Jido.Signal.Bus.Middleware.Logger"}, {"opts", {{"format", "x"}}}}}}}}}),
      "signal_bus.middleware[0].opts.format: unknown key; the only option is level");
}

TEST(CommandSettings, MiddlewareLevelsAreDebugInfoWarnWarningError) {
  auto with_level = [](json level) {
    return json{{"signal_bus",
                 {{"middleware", {{{"module", "Jido.Signal.Bus.Middleware.Logger"}, {"opts", {{"level", level}}}}}}}}};
  };
  for (auto [name, level] : {std::pair{"debug", LogLevel::Debug},
                             {"info", LogLevel::Info},
                             {"warn", LogLevel::Warning},
                             {"warning", LogLevel::Warning},
                             {"error", LogLevel::Error}}) {
    auto s = ptc::settings_from_json(with_level(name));
    ASSERT_TRUE(s) << name;
    EXPECT_THAT(s->logger_levels, ElementsAre(level)) << name;
  }
  for (json bad : {json("trace"), json("Info"), json(1), json(nullptr)})
    EXPECT_EQ(error_of(with_level(bad)),
              "signal_bus.middleware[0].opts.level: must be one of debug, info, warn, warning, error")
        << bad.dump();
}

TEST(CommandSettings, MiddlewareWithoutOptsLogsAtDebugAndAnEmptyListLogsNothing) {
  auto one =
      ptc::settings_from_json({{"signal_bus", {{"middleware", {{{"module", "Jido.Signal.Bus.Middleware.Logger"}}}}}}});
  ASSERT_TRUE(one);
  EXPECT_THAT(one->logger_levels, ElementsAre(LogLevel::Debug));
  auto none = ptc::settings_from_json({{"signal_bus", {{"middleware", json::array()}}}});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->logger_levels.empty());
}

TEST(CommandSettings, DefaultModelMustBeANonEmptyString) {
  EXPECT_EQ(error_of({{"commands", {{"default_model", ""}}}}), "commands.default_model: must be a non-empty string");
  EXPECT_EQ(error_of({{"commands", {{"default_model", 3}}}}), "commands.default_model: must be a non-empty string");
  EXPECT_EQ(error_of({{"commands", "fast"}}), "commands: must be an object");
}

TEST(CommandSettings, MaxConcurrentMustBeAPositiveInteger) {
  for (json bad : {json(0), json(-1), json(2.5), json(2.0), json("3"), json(nullptr), json(true)})
    EXPECT_EQ(error_of({{"commands", {{"max_concurrent", bad}}}}),
              "commands.max_concurrent: must be a positive integer")
        << bad.dump();
  EXPECT_EQ(error_of({{"commands", {{"max_concurrent", 64}}}}), "");
}

TEST(CommandSettings, ErrorsNameTheFileThatHoldsTheValue) {
  ptc::test::TempDir dir;
  auto global = dir.write("global/settings.json", R"js({"commands": {"max_concurrent": 0}, "version": "1.0"})js");
  auto project =
      dir.write("project/settings.json", R"js({"commands": {"max_concurrent": 2}, "signal_bus": {"name": ""}})js");
  auto s = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, global.string() + ": version: must be a SemVer version such as 1.2.3");

  dir.write("global/settings.json", R"js({"commands": {"max_concurrent": 0}})js");
  s = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, project.string() + ": signal_bus.name: must be a non-empty string");

  // The project's value replaces the global one that alone would be wrong.
  dir.write("project/settings.json", R"js({"commands": {"max_concurrent": 2}})js");
  EXPECT_TRUE(ptc::load_command_settings(dir / "global", dir / "project"));
}

TEST(CommandSettings, MalformedFilesAreNamedWithThePosition) {
  ptc::test::TempDir dir;
  auto file = dir.write("global/settings.json", "{\"commands\": {\"max_concurrent\": 1,}}");
  auto s = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_FALSE(s);
  EXPECT_THAT(s.error().message, HasSubstr(file.string() + ": column 35: invalid JSON: syntax error"));
  dir.write("global/settings.json", "[1]");
  s = ptc::load_command_settings(dir / "global", dir / "project");
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error().message, file.string() + ": settings must be a JSON object, got list");
}

TEST(CommandSettings, RootMustBeAnObject) {
  EXPECT_EQ(error_of(json::array()), "settings must be a JSON object, got list");
}

}  // namespace
