#pragma once
// ptc::tools's public API in one include: tools, the registry and dispatch, sessions, prompts, provider formats.

#include <ptc/budget.hpp>
#include <ptc/cancellation.hpp>
#include <ptc/content.hpp>
#include <ptc/deadline.hpp>
#include <ptc/events.hpp>
#include <ptc/filesystem.hpp>
#include <ptc/heartbeat.hpp>
#include <ptc/policy.hpp>
#include <ptc/prompt.hpp>
#include <ptc/provider.hpp>
#include <ptc/registry.hpp>
#include <ptc/resources.hpp>
#include <ptc/run_context.hpp>
#include <ptc/section.hpp>
#include <ptc/server_identity.hpp>
#include <ptc/session.hpp>
#include <ptc/tool.hpp>
#include <ptc/tool_call.hpp>
#include <ptc/tool_catalog.hpp>
#include <ptc/tool_context.hpp>
#include <ptc/tool_errors.hpp>
#include <ptc/tool_example.hpp>
#include <ptc/tool_list.hpp>
#include <ptc/tool_result.hpp>
#include <ptc/tool_rules.hpp>
