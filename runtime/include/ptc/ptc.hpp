#pragma once
// The whole public API of ptc::runtime.

#include <ptc/coercion.hpp>
#include <ptc/error.hpp>
#include <ptc/firewall.hpp>
#include <ptc/json_input.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/placeholders.hpp>
#include <ptc/prompt.hpp>
#include <ptc/schema.hpp>
#include <ptc/signature.hpp>
#include <ptc/validate.hpp>
