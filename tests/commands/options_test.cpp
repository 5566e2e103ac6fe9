// The option and spec types of the public headers, written the way users write them: designated
// initializers that name only the fields they set. This file is built with -Wall -Wextra -Werror like
// every test, so a field without a default member initializer (which g++ 12 reports as
// -Wmissing-field-initializers) fails the build; the assertions check that the omitted fields keep
// their documented defaults.
#include <gtest/gtest.h>

#include <ptc/command_dispatcher.hpp>
#include <ptc/command_registry.hpp>
#include <ptc/commands.hpp>
#include <ptc/policy.hpp>
#include <ptc/registry.hpp>
#include <ptc/section.hpp>
#include <ptc/signal_bus.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/validate.hpp>

namespace {

TEST(Options, ToolRuntimeOptionsNeedOnlyTheFieldsThatAreSet) {
  const ptc::ValidateOptions validate{.mode = ptc::Mode::Strict};
  EXPECT_EQ(validate.direction, ptc::Direction::Output);

  const ptc::DispatchOptions dispatch{.mode = ptc::Mode::WarnOnly};
  EXPECT_EQ(dispatch.environment.adapter, "");
  EXPECT_NE(dispatch.clock, nullptr);

  const ptc::CallEnvironment environment{.adapter = "openai"};
  EXPECT_EQ(environment.prompt, nullptr);
  EXPECT_FALSE(environment.deadline.has_value());

  const ptc::ToolSpec tool{.name = "echo", .description = "Echo text back."};
  EXPECT_EQ(tool.invoker, nullptr);
  EXPECT_FALSE(tool.accepts_overrides);

  const ptc::ToolOptions tool_options{.accepts_overrides = true};
  EXPECT_TRUE(tool_options.examples.empty());

  const ptc::SectionSpec section{.title = "Files", .key = "files"};
  EXPECT_TRUE(section.enabled);
  EXPECT_TRUE(section.tools.empty());

  const ptc::ReadBeforeWritePolicy::Options read_before_write{.mount_point = "/srv"};
  EXPECT_EQ(read_before_write.read_tools.count("read_file"), 1u);
}

TEST(Options, CommandOptionsNeedOnlyTheFieldsThatAreSet) {
  const ptc::CommandsOptions commands{.project_root = ".jido_code"};
  EXPECT_TRUE(commands.global_root.empty());
  EXPECT_TRUE(commands.log_sink);

  const ptc::CommandRegistryOptions registry{.default_model = "m"};
  EXPECT_EQ(registry.bus, nullptr);

  const ptc::CommandDispatcherOptions dispatcher{.max_concurrent = 2};
  EXPECT_TRUE(dispatcher.permissions.allow.empty());

  const ptc::CommandInvokeOptions invoke{.invocation_id = "id-1"};
  EXPECT_FALSE(invoke.permissions.has_value());

  const ptc::SignalBus::Options bus{.name = "test_bus"};
  EXPECT_TRUE(bus.middleware.empty());

  const ptc::Permissions permissions{.allow = {"Read"}};
  EXPECT_TRUE(permissions.deny.empty());
}

}  // namespace
