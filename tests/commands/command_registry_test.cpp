// The command registry: loading the global and project directories, reload, runtime registration and
// removal, their lifecycle signals, and failures that keep the catalog as it was.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/command_registry.hpp>
#include <ptc/signal_bus.hpp>

#include "command_test_support.hpp"

namespace {

using nlohmann::json;
using ptc::CommandScope;
using ptc::test::command_text;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::string cmd(const std::string& name, const std::string& description = "Does things",
                const std::string& extra = "") {
  return command_text("name: " + name + "\ndescription: " + description + "\n" + extra);
}

class Registry : public ::testing::Test {
 protected:
  std::unique_ptr<ptc::CommandRegistry> open(std::optional<std::string> default_model = std::nullopt) {
    auto r = ptc::CommandRegistry::open({dir / "global", dir / "project", std::move(default_model), &bus});
    if (!r) throw std::runtime_error(r.error().message);
    return std::move(*r);
  }
  std::string open_error() {
    auto r = ptc::CommandRegistry::open({dir / "global", dir / "project", std::nullopt, &bus});
    return r ? "" : r.error().message;
  }

  ptc::test::TempDir dir;
  ptc::SignalBus bus;
  ptc::test::SignalLog log{bus};
};

TEST_F(Registry, LoadsGlobalThenProjectAndTheProjectWins) {
  dir.write("global/commands/review.md", cmd("review", "Global review"));
  dir.write("global/commands/deploy.md", cmd("deploy"));
  auto project_review = dir.write("project/commands/review.md", cmd("review", "Project review"));
  dir.write("project/commands/notes.txt", "not a command");
  dir.write("project/commands/nested/inner.md", cmd("inner"));
  auto registry = open();
  EXPECT_THAT(registry->list_commands(), ElementsAre("deploy", "review"));
  EXPECT_EQ(registry->size(), 2u);
  EXPECT_EQ(registry->find("review")->description, "Project review");
  EXPECT_EQ(registry->find("review")->path, project_review);
  EXPECT_EQ(registry->entry("review")->scope, CommandScope::Project);
  EXPECT_EQ(registry->entry("deploy")->scope, CommandScope::Global);
  EXPECT_EQ(registry->find("missing"), nullptr);
  EXPECT_TRUE(log.all().empty());  // loading is not a lifecycle change
}

TEST_F(Registry, MissingDirectoriesHoldNoCommands) { EXPECT_EQ(open()->size(), 0u); }

TEST_F(Registry, TheDefaultModelFillsCommandsThatNameNone) {
  dir.write("project/commands/a.md", cmd("a"));
  dir.write("project/commands/b.md", cmd("b", "d", "model: opus\n"));
  auto registry = open("sonnet");
  EXPECT_EQ(registry->find("a")->model, "sonnet");
  EXPECT_EQ(registry->find("b")->model, "opus");
}

TEST_F(Registry, ABadFileStopsTheLoadAndIsNamed) {
  auto bad = dir.write("project/commands/bad.md", cmd("bad", "d", "allowed-tools: []\n"));
  EXPECT_EQ(open_error(), bad.string() + ": allowed-tools: must not be an empty list");
}

TEST_F(Registry, TwoFilesOfOneDirectoryCannotShareAName) {
  auto first = dir.write("project/commands/a.md", cmd("same"));
  auto second = dir.write("project/commands/b.md", cmd("same"));
  EXPECT_EQ(open_error(), second.string() + ": name: 'same' is already the name of " + first.string());
}

TEST_F(Registry, ReloadPicksUpChangesAndReportsCounts) {
  dir.write("project/commands/a.md", cmd("a"));
  auto registry = open();
  dir.write("project/commands/b.md", cmd("b"));
  dir.write("global/commands/c.md", cmd("c"));
  auto r = registry->reload();
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, (json{{"previous_count", 1}, {"current_count", 3}}));
  EXPECT_THAT(registry->list_commands(), ElementsAre("a", "b", "c"));
  auto signals = log.all();
  ASSERT_EQ(signals.size(), 1u);
  EXPECT_EQ(signals[0].type, "command.registry.reloaded");
  EXPECT_EQ(signals[0].source, "/jido_command/registry");
  EXPECT_EQ(signals[0].data, *r);
}

TEST_F(Registry, AFailedReloadKeepsThePreviousCatalog) {
  dir.write("project/commands/a.md", cmd("a"));
  dir.write("project/commands/b.md", cmd("b"));
  auto registry = open();
  auto bad = dir.write("project/commands/c.md", "no frontmatter\n");
  auto r = registry->reload();
  ASSERT_FALSE(r);
  std::string error = bad.string() + ": must start with YAML frontmatter between two '---' lines";
  EXPECT_EQ(r.error().message, error);
  EXPECT_THAT(registry->list_commands(), ElementsAre("a", "b"));
  auto failed = log.of("command.registry.failed");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].data,
            (json{{"operation", "reload"}, {"error", error}, {"previous_count", 2}, {"current_count", 2}}));
  EXPECT_THAT(log.of("command.registry.reloaded"), IsEmpty());
}

TEST_F(Registry, RegisterAddsAFileAtRunTime) {
  dir.write("project/commands/a.md", cmd("a"));
  auto registry = open();
  auto file = dir.write("elsewhere/extra.md", cmd("extra"));
  auto r = registry->register_command(file.string());
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, (json{{"name", "extra"}, {"path", file.string()}, {"scope", "manual"}, {"current_count", 2}}));
  EXPECT_EQ(registry->entry("extra")->scope, CommandScope::Manual);
  auto registered = log.of("command.registered");
  ASSERT_EQ(registered.size(), 1u);
  EXPECT_EQ(registered[0].data, *r);
}

TEST_F(Registry, RegisteredPathsAreAbsolute) {
  auto registry = open();
  auto file = dir.write("elsewhere/extra.md", cmd("extra"));
  auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  auto r = registry->register_command("  elsewhere/../elsewhere/extra.md ");
  std::filesystem::current_path(cwd);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["path"], file.string());
}

TEST_F(Registry, RegistrationsSurviveReloadAndReplaceTheirOwnEarlierName) {
  dir.write("project/commands/review.md", cmd("review", "Project review"));
  auto registry = open();
  auto file = dir.write("elsewhere/review.md", cmd("review", "Manual review"));
  ASSERT_TRUE(registry->register_command(file.string()));
  EXPECT_EQ(registry->find("review")->description, "Manual review");
  ASSERT_TRUE(registry->reload());
  EXPECT_EQ(registry->find("review")->description, "Manual review");

  dir.write("elsewhere/review.md", cmd("review2", "Renamed"));
  auto again = registry->register_command(file.string());
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_THAT(registry->list_commands(), ElementsAre("review", "review2"));
  EXPECT_EQ((*again)["current_count"], 2);
}

TEST_F(Registry, RegisterRejectsBlankAndNonStringPaths) {
  auto registry = open();
  for (json bad : {json(""), json("   "), json(42), json(nullptr), json::array()}) {
    auto r = registry->register_command(bad);
    ASSERT_FALSE(r) << bad.dump();
    EXPECT_EQ(r.error().message, "invalid_path: a command path must be a non-empty string");
  }
  auto failed = log.of("command.registry.failed");
  ASSERT_EQ(failed.size(), 5u);
  EXPECT_EQ(failed[0].data, (json{{"operation", "register"},
                                  {"error", "invalid_path: a command path must be a non-empty string"},
                                  {"path", ""}}));
  EXPECT_EQ(failed[2].data["path"], "42");
  EXPECT_EQ(failed[3].data["path"], "null");
}

TEST_F(Registry, RegisterOfABadFileFailsWithThePath) {
  auto registry = open();
  auto missing = dir / "nowhere.md";
  auto r = registry->register_command(missing.string());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, missing.string() + ": No such file or directory");
  EXPECT_EQ(log.of("command.registry.failed").at(0).data,
            (json{{"operation", "register"}, {"error", r.error().message}, {"path", missing.string()}}));
  EXPECT_EQ(registry->size(), 0u);
}

TEST_F(Registry, UnregisterRemovesACommand) {
  dir.write("project/commands/a.md", cmd("a"));
  dir.write("project/commands/b.md", cmd("b"));
  auto registry = open();
  auto r = registry->unregister_command(" a ");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, (json{{"name", "a"}, {"current_count", 1}}));
  EXPECT_THAT(registry->list_commands(), ElementsAre("b"));
  EXPECT_EQ(log.of("command.unregistered").at(0).data, *r);
  ASSERT_TRUE(registry->reload());  // directory commands come back with the next reload
  EXPECT_THAT(registry->list_commands(), ElementsAre("a", "b"));
}

TEST_F(Registry, UnregisteringARegistrationBringsBackWhatItShadowed) {
  dir.write("project/commands/review.md", cmd("review", "Project review"));
  auto registry = open();
  ASSERT_TRUE(registry->register_command(dir.write("elsewhere/review.md", cmd("review", "Manual review")).string()));
  auto r = registry->unregister_command("review");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(*r, (json{{"name", "review"}, {"current_count", 1}}));
  EXPECT_EQ(registry->find("review")->description, "Project review");
  ASSERT_TRUE(registry->reload());
  EXPECT_EQ(registry->find("review")->description, "Project review");
}

TEST_F(Registry, UnregisterRejectsBlankNonStringAndUnknownNames) {
  auto registry = open();
  for (json bad : {json(" "), json(7), json(nullptr)}) {
    auto r = registry->unregister_command(bad);
    ASSERT_FALSE(r) << bad.dump();
    EXPECT_EQ(r.error().message, "invalid_name: a command name must be a non-empty string");
  }
  auto missing = registry->unregister_command("ghost");
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().message, "unknown command 'ghost'");
  auto failed = log.of("command.registry.failed");
  ASSERT_EQ(failed.size(), 4u);
  EXPECT_EQ(failed[1].data, (json{{"operation", "unregister"},
                                  {"error", "invalid_name: a command name must be a non-empty string"},
                                  {"name", "7"}}));
  EXPECT_EQ(failed[3].data,
            (json{{"operation", "unregister"}, {"error", "unknown command 'ghost'"}, {"name", "ghost"}}));
}

TEST_F(Registry, WithoutABusNothingIsPublished) {
  dir.write("project/commands/a.md", cmd("a"));
  auto registry = ptc::CommandRegistry::open({dir / "global", dir / "project", std::nullopt, nullptr});
  ASSERT_TRUE(registry);
  EXPECT_TRUE((*registry)->reload());
  EXPECT_FALSE((*registry)->unregister_command(""));
  EXPECT_TRUE(log.all().empty());
  EXPECT_EQ(ptc::command_scope_name(CommandScope::Manual), "manual");
}

}  // namespace
