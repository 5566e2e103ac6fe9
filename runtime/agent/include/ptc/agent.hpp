#pragma once
// ptc::agent's public API in one include: run a model over your tools.

#include <ptc/agent/agent.hpp>
#include <ptc/agent/client_model.hpp>
#include <ptc/agent/conversation.hpp>
#include <ptc/agent/model.hpp>
#include <ptc/agent/providers.hpp>
#include <ptc/agent/testing.hpp>
#include <ptc/agent/typed.hpp>
