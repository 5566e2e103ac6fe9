// ptc::Commands: invoke and dispatch, their JSON forms and option rules (options objects, bus and
// registry names, permissions objects), and the registry calls.

#include <functional>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ptc/commands.hpp>

#include "command_test_support.hpp"

namespace {

using nlohmann::json;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

const json kObject = json::object();

class Api : public ::testing::Test {
 protected:
  Api() {
    dir.write("project/settings.json", R"js({"permissions": {"allow": ["Read", "Write"], "deny": ["Bash(rm:*)"]},
      "commands": {"default_model": "sonnet", "max_concurrent": 2},
      "signal_bus": {"name": "team_bus", "middleware": [{"module": "Jido.Signal.Bus.Middleware.Logger", "opts": {"level": "info"}}]}})js");
    dir.write("project/commands/echo.md",
              ptc::test::command_text("name: echo\ndescription: Echo\njido: {hooks: {pre: true}}\n", "Say {{text}}"));
    auto opened =
        ptc::Commands::open({dir / "global", dir / "project", [this](ptc::LogLevel level, const std::string& line) {
                               std::lock_guard lock(log_mutex);
                               logged.push_back(std::string(ptc::log_level_name(level)) + " " + line);
                             }});
    if (!opened) throw std::runtime_error(opened.error().message);
    commands = std::move(opened).value();
    log = std::make_unique<ptc::test::SignalLog>(commands->bus());
  }
  std::string invoke_error(const json& name, const json& params, const json& context, const json& options = kObject) {
    auto r = commands->invoke_json(name, params, context, options);
    return r ? "" : r.error().message;
  }
  std::string dispatch_error(const json& name, const json& params, const json& context, const json& options = kObject) {
    auto r = commands->dispatch_json(name, params, context, options);
    return r ? "" : r.error().message;
  }
  json permissions_seen(const json& context, const json& options = kObject) {
    auto r = commands->invoke_json("echo", kObject, context, options);
    if (!r) return r.error().message;
    return (*r)["result"]["permissions"];
  }

  ptc::test::TempDir dir;
  std::mutex log_mutex;
  std::vector<std::string> logged;
  std::unique_ptr<ptc::Commands> commands;
  std::unique_ptr<ptc::test::SignalLog> log;  // declared after commands: unsubscribes before the bus goes
};

TEST_F(Api, OpenReadsSettingsAndCommands) {
  EXPECT_EQ(commands->settings().max_concurrent, 2u);
  EXPECT_EQ(commands->bus().name(), "team_bus");
  EXPECT_THAT(commands->registry().list_commands(), ElementsAre("echo"));
  EXPECT_EQ(commands->registry().find("echo")->model, "sonnet");
}

TEST_F(Api, OpenFailsOnBadSettingsOrCommands) {
  ptc::test::TempDir other;
  auto settings = other.write("project/settings.json", R"js({"commands": {"max_concurrent": -1}})js");
  auto r = ptc::Commands::open({other / "global", other / "project"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, settings.string() + ": commands.max_concurrent: must be a positive integer");
  std::filesystem::remove(settings);
  auto file = other.write("global/commands/x.md", ptc::test::command_text("name: x\n"));
  r = ptc::Commands::open({other / "global", other / "project"});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, file.string() + ": description: is required");
}

TEST_F(Api, InvokeRunsNowAndReturnsTheOutcome) {
  auto r = commands->invoke("echo", {{"text", "hi"}}, {{"user", "ann"}}, {"inv-1", std::nullopt});
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ((*r)["invocation_id"], "inv-1");
  EXPECT_EQ((*r)["result"]["prompt"], "Say hi");
  EXPECT_EQ((*r)["result"]["model"], "sonnet");
  // Hooks go on the bus; invoke answers directly, not with command.completed.
  EXPECT_THAT(log->types(), ElementsAre("jido.hooks.pre"));
  std::lock_guard lock(log_mutex);
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_TRUE(logged[0].starts_with("info signal jido.hooks.pre id=")) << logged[0];
}

TEST_F(Api, InvocationIdComesFromTheOptionThenTheContextThenIsMade) {
  auto id = [&](const json& context, const json& options) {
    auto r = commands->invoke_json("echo", kObject, context, options);
    return r ? (*r)["invocation_id"].get<std::string>() : r.error().message;
  };
  EXPECT_EQ(id({{"invocation_id", "ctx"}}, {{"invocation_id", "opt"}}), "opt");
  EXPECT_EQ(id({{"invocation_id", "ctx"}}, {{"invocation_id", "  "}}), "ctx");
  EXPECT_EQ(id({{":invocation_id", " ctx "}}, {{"invocation_id", 5}}), "ctx");
  EXPECT_EQ(id({{"invocation_id", ""}}, kObject).size(), 36u);
  EXPECT_EQ(id({{"invocation_id", 9}}, kObject).size(), 36u);
  EXPECT_NE(id(kObject, kObject), id(kObject, kObject));
}

TEST_F(Api, NameMustBeANonEmptyStringAndParamsAndContextObjects) {
  const std::string bad_name = "invalid_name: a command name must be a non-empty string";
  EXPECT_EQ(invoke_error("", kObject, kObject), bad_name);
  EXPECT_EQ(invoke_error(3, kObject, kObject), bad_name);
  EXPECT_EQ(dispatch_error(" ", kObject, kObject), bad_name);
  EXPECT_EQ(invoke_error("echo", json::array(), kObject), "params must be an object, got list");
  EXPECT_EQ(dispatch_error("echo", kObject, "ctx"), "context must be an object, got string");
  EXPECT_EQ(invoke_error("ghost", kObject, kObject), "unknown command 'ghost'");
  auto typed = commands->invoke("", kObject);
  ASSERT_FALSE(typed);
  EXPECT_EQ(typed.error().message, bad_name);
}

TEST_F(Api, ContextCannotHoldBothInvocationIdKeys) {
  json context{{"invocation_id", "a"}, {":invocation_id", "b"}, {":a", 1}, {"a", 2}};
  EXPECT_EQ(invoke_error("echo", kObject, context),
            "context: conflicting keys \":invocation_id\" and \"invocation_id\"");
  EXPECT_EQ(dispatch_error("echo", kObject, context),
            "context: conflicting keys \":invocation_id\" and \"invocation_id\"");
}

TEST_F(Api, ParamsAndContextRejectConflictingKeysAtAnyDepth) {
  EXPECT_EQ(invoke_error("echo", {{"text", 1}, {":text", 2}}, kObject),
            "params: conflicting keys \":text\" and \"text\"");
  EXPECT_EQ(dispatch_error("echo", {{"deep", {{"list", {{{"k", 1}, {":k", 2}}}}}}}, kObject),
            "params.deep.list[0]: conflicting keys \":k\" and \"k\"");
  EXPECT_EQ(invoke_error("echo", kObject, {{"user", {{"id", 1}, {":id", 1}}}}),
            "context.user: conflicting keys \":id\" and \"id\"");
}

TEST_F(Api, OptionsMustBeAnObjectOfKnownKeys) {
  EXPECT_EQ(invoke_error("echo", kObject, kObject, json::array({"bus"})),
            "invalid invoke options: must be an object, got list");
  EXPECT_EQ(dispatch_error("echo", kObject, kObject, "bus"), "invalid dispatch options: must be an object, got string");
  EXPECT_EQ(invoke_error("echo", kObject, kObject, {{"bus", "team_bus"}, {":bus", "team_bus"}}),
            "invalid invoke options: conflicting keys \":bus\" and \"bus\"");
  EXPECT_EQ(invoke_error("echo", kObject, kObject, {{"timeout", 5}}),
            "invalid invoke options: unknown key \"timeout\"; expected bus, registry, invocation_id or permissions");
  EXPECT_EQ(dispatch_error("echo", kObject, kObject, {{"permissions", kObject}}),
            "invalid dispatch options: unknown key \"permissions\"; expected bus or invocation_id");
  EXPECT_EQ(dispatch_error("echo", kObject, kObject, {{"registry", "command_registry"}}),
            "invalid dispatch options: unknown key \"registry\"; expected bus or invocation_id");
  EXPECT_EQ(invoke_error("echo", kObject, kObject, {{":bus", ":team_bus"}, {":registry", "command_registry"}}), "");
}

TEST_F(Api, BusAndRegistryOptionsNameThisRuntimes) {
  EXPECT_EQ(invoke_error("echo", kObject, kObject, {{"bus", ""}}),
            "invalid invoke options: bus: must name a bus (a non-empty string)");
  EXPECT_EQ(invoke_error("echo", kObject, kObject, {{"bus", 4}}),
            "invalid invoke options: bus: must name a bus (a non-empty string)");
  EXPECT_EQ(invoke_error("echo", kObject, kObject, {{"bus", "other"}}),
            "invalid invoke options: bus: unknown bus 'other'; this runtime's is 'team_bus'");
  EXPECT_EQ(dispatch_error("echo", kObject, kObject, {{"bus", nullptr}}),
            "invalid dispatch options: bus: must name a bus (a non-empty string)");
  EXPECT_EQ(invoke_error("echo", kObject, kObject, {{"registry", json::array()}}),
            "invalid invoke options: registry: must name a registry (a non-empty string)");
  EXPECT_EQ(invoke_error("echo", kObject, kObject, {{"registry", "Elsewhere"}}),
            "invalid invoke options: registry: unknown registry 'Elsewhere'; this runtime's is 'command_registry'");
}

TEST_F(Api, ContextBusMustNameThisRuntimesBusOnInvoke) {
  EXPECT_EQ(invoke_error("echo", kObject, {{"bus", ""}}), "context.bus: must name a bus (a non-empty string)");
  EXPECT_EQ(invoke_error("echo", kObject, {{":bus", "other"}}),
            "context.bus: unknown bus 'other'; this runtime's is 'team_bus'");
  EXPECT_EQ(invoke_error("echo", kObject, {{"bus", "team_bus"}}), "");
  EXPECT_EQ(dispatch_error("echo", kObject, {{"bus", "other"}}), "");  // dispatch leaves the context alone
}

TEST_F(Api, PermissionsComeFromTheOptionThenTheContextThenTheSettings) {
  EXPECT_EQ(permissions_seen(kObject), json::parse(R"js({"allow":["Read","Write"],"deny":["Bash(rm:*)"],"ask":[]})js"));
  EXPECT_EQ(permissions_seen({{"permissions", {{"allow", {" Grep ", "Grep"}}}}}),
            json::parse(R"js({"allow":["Grep"],"deny":[],"ask":[]})js"));
  EXPECT_EQ(permissions_seen({{"permissions", {{"allow", {"Grep"}}}}}, {{"permissions", {{"ask", {"Read"}}}}}),
            json::parse(R"js({"allow":[],"deny":[],"ask":["Read"]})js"));
  auto typed = commands->invoke("echo", kObject, kObject, {std::nullopt, ptc::Permissions{{}, {"Read"}, {}}});
  ASSERT_TRUE(typed);
  EXPECT_EQ((*typed)["result"]["permissions"]["deny"], json::array({"Read"}));
}

TEST_F(Api, PermissionsObjectsOnlyHoldAllowDenyAndAskLists) {
  auto option = [&](const json& permissions) {
    return invoke_error("echo", kObject, kObject, {{"permissions", permissions}});
  };
  EXPECT_EQ(option(json::array()),
            "invalid invoke options: permissions: must be an object with allow, deny and ask lists");
  EXPECT_EQ(option({{"allow", json::array()}, {"always", json::array()}}),
            "invalid invoke options: permissions.always: unknown key; expected allow, deny or ask");
  EXPECT_EQ(option({{"allow", json::array()}, {":allow", json::array()}}),
            "invalid invoke options: permissions: conflicting keys \":allow\" and \"allow\"");
  EXPECT_EQ(option({{"allow", {{{"a", 1}, {":a", 2}}}}}),
            "invalid invoke options: permissions.allow[0]: conflicting keys \":a\" and \"a\"");
  EXPECT_EQ(option({{"deny", "Read"}}),
            "invalid invoke options: permissions.deny: must be a list of strings, got string");
  EXPECT_EQ(option({{"ask", {"Read", 1}}}), "invalid invoke options: permissions.ask[1]: must be a string");
  EXPECT_EQ(option({{":allow", {"Read"}}}), "");
}

TEST_F(Api, APresentBucketIsCheckedEvenWhenFalseOrNull) {
  EXPECT_EQ(invoke_error("echo", kObject, kObject, {{"permissions", {{"allow", false}}}}),
            "invalid invoke options: permissions.allow: must be a list of strings, got boolean");
  EXPECT_EQ(invoke_error("echo", kObject, kObject, {{"permissions", {{"deny", nullptr}}}}),
            "invalid invoke options: permissions.deny: must be a list of strings, got null");
  EXPECT_EQ(invoke_error("echo", kObject, {{"permissions", {{"ask", false}}}}),
            "context.permissions.ask: must be a list of strings, got boolean");
}

TEST_F(Api, ContextPermissionsFollowTheSameRules) {
  EXPECT_EQ(invoke_error("echo", kObject, {{"permissions", "Read"}}),
            "context.permissions: must be an object with allow, deny and ask lists");
  EXPECT_EQ(invoke_error("echo", kObject, {{"permissions", {{"maybe", json::array()}}}}),
            "context.permissions.maybe: unknown key; expected allow, deny or ask");
  EXPECT_EQ(dispatch_error("echo", kObject, {{"permissions", "Read"}}), "");  // the dispatcher enforces the settings'
}

TEST_F(Api, DispatchPublishesCommandInvokeAndTheDispatcherAnswers) {
  auto id = commands->dispatch_json("echo", {{"text", "yo"}}, {{"user", "ann"}}, {{"invocation_id", "inv-d"}});
  ASSERT_TRUE(id) << id.error().message;
  EXPECT_EQ(*id, "inv-d");
  commands->dispatcher().wait_idle();
  EXPECT_THAT(log->types(), ElementsAre("command.invoke", "jido.hooks.pre", "command.completed"));
  auto invoke = log->of("command.invoke").at(0);
  EXPECT_EQ(invoke.source, "/jido_command");
  EXPECT_EQ(
      invoke.data,
      (json{
          {"name", "echo"}, {"params", {{"text", "yo"}}}, {"context", {{"user", "ann"}}}, {"invocation_id", "inv-d"}}));
  EXPECT_EQ(log->of("command.completed").at(0).data["result"]["result"]["prompt"], "Say yo");
}

TEST_F(Api, DispatchPublishesNothingForBadArguments) {
  EXPECT_NE(dispatch_error("", kObject, kObject), "");
  EXPECT_NE(dispatch_error("echo", 1, kObject), "");
  EXPECT_NE(dispatch_error("echo", kObject, kObject, {{"bus", "nope"}}), "");
  EXPECT_THAT(log->all(), IsEmpty());
  auto typed = commands->dispatch("echo", kObject, {{"invocation_id", "from-context"}});
  ASSERT_TRUE(typed);
  EXPECT_EQ(*typed, "from-context");
  commands->dispatcher().wait_idle();
}

TEST_F(Api, RegistryCallsTakeOnlyARegistryOption) {
  EXPECT_THAT(commands->list_commands_json(kObject).value(), ElementsAre("echo"));
  EXPECT_THAT(commands->list_commands_json({{"registry", "command_registry"}}).value(), ElementsAre("echo"));
  EXPECT_EQ(commands->list_commands_json(json::array()).error().message,
            "invalid list_commands options: must be an object, got list");
  EXPECT_EQ(commands->reload_json({{"bus", "team_bus"}}).error().message,
            "invalid reload options: unknown key \"bus\"; expected registry");
  EXPECT_EQ(commands->register_command_json("x.md", {{"registry", "a"}, {":registry", "a"}}).error().message,
            "invalid register_command options: conflicting keys \":registry\" and \"registry\"");
  EXPECT_EQ(commands->unregister_command_json("echo", {{"registry", ""}}).error().message,
            "invalid unregister_command options: registry: must name a registry (a non-empty string)");
  EXPECT_EQ(
      commands->unregister_command_json("echo", {{"registry", "other"}}).error().message,
      "invalid unregister_command options: registry: unknown registry 'other'; this runtime's is 'command_registry'");
  EXPECT_THAT(log->all(), IsEmpty());
}

TEST_F(Api, EveryRegistryCallAppliesEachOptionRule) {
  using Call = std::function<std::string(const json& options)>;
  auto error = [](auto result) { return result ? std::string() : result.error().message; };
  std::vector<std::pair<std::string, Call>> calls{
      {"list_commands", [&](const json& o) { return error(commands->list_commands_json(o)); }},
      {"reload", [&](const json& o) { return error(commands->reload_json(o)); }},
      {"register_command", [&](const json& o) { return error(commands->register_command_json("missing.md", o)); }},
      {"unregister_command", [&](const json& o) { return error(commands->unregister_command_json("ghost", o)); }}};
  for (const auto& [operation, call] : calls) {
    std::string prefix = "invalid " + operation + " options: ";
    EXPECT_EQ(call(json::array({json::array({"registry", "command_registry"})})),
              prefix + "must be an object, got list");
    EXPECT_EQ(call("registry"), prefix + "must be an object, got string");
    EXPECT_EQ(call({{"registry", "command_registry"}, {":registry", "command_registry"}}),
              prefix + "conflicting keys \":registry\" and \"registry\"");
    EXPECT_EQ(call({{"name", "x"}}), prefix + "unknown key \"name\"; expected registry");
    EXPECT_EQ(call({{"registry", 3}}), prefix + "registry: must name a registry (a non-empty string)");
    EXPECT_EQ(call({{"registry", "other"}}),
              prefix + "registry: unknown registry 'other'; this runtime's is 'command_registry'");
    // A good registry name gets as far as the operation itself.
    EXPECT_FALSE(call({{"registry", ":command_registry"}}).starts_with(prefix)) << operation;
  }
}

TEST_F(Api, RegistryCallsReachTheRegistry) {
  auto file = dir.write("extra/extra.md", ptc::test::command_text("name: extra\ndescription: Extra\n"));
  EXPECT_EQ(commands->register_command_json(file.string(), kObject).value()["current_count"], 2);
  EXPECT_EQ(commands->register_command_json(7, kObject).error().message,
            "invalid_path: a command path must be a non-empty string");
  EXPECT_EQ(commands->reload_json(kObject).value(), (json{{"previous_count", 2}, {"current_count", 2}}));
  EXPECT_EQ(commands->unregister_command_json("extra", kObject).value(),
            (json{{"name", "extra"}, {"current_count", 1}}));
  EXPECT_EQ(commands->unregister_command_json(false, kObject).error().message,
            "invalid_name: a command name must be a non-empty string");
  EXPECT_THAT(log->types(), ElementsAre("command.registered", "command.registry.failed", "command.registry.reloaded",
                                        "command.unregistered", "command.registry.failed"));
}

}  // namespace
