#pragma once
// ptc::core's public API in one include: the schema model, its syntaxes, validation and coercion, JSON Schema.

#include <ptc/annotate.hpp>
#include <ptc/coercion.hpp>
#include <ptc/error.hpp>
#include <ptc/file_input.hpp>
#include <ptc/firewall.hpp>
#include <ptc/json_input.hpp>
#include <ptc/json_schema.hpp>
#include <ptc/json_text.hpp>
#include <ptc/lazy_json.hpp>
#include <ptc/limits.hpp>
#include <ptc/placeholders.hpp>
#include <ptc/schema.hpp>
#include <ptc/signature.hpp>
#include <ptc/uuid.hpp>
#include <ptc/validate.hpp>
