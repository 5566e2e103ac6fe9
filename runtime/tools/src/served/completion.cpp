// ptc::complete: the values offered for an argument, from its completer or its schema.

#include <algorithm>

#include <nlohmann/json.hpp>

#include <ptc/completion.hpp>

namespace ptc {
namespace {

/// The values a type completes from with no code: an enum's (those that are text), a bool's.
std::vector<std::string> schema_values(const Schema& schema) {
  switch (schema.kind()) {
    case Kind::Maybe: return schema_values(schema.item());
    case Kind::Bool: return {"true", "false"};
    case Kind::Enum: {
      std::vector<std::string> out;
      for (const auto& v : schema.values()) {
        if (v.is_string())
          out.push_back(v.get<std::string>());
        else if (v.is_number() || v.is_boolean())
          out.push_back(v.dump());
      }
      return out;
    }
    default: return {};
  }
}

}  // namespace

Completion complete(const Schema& schema, const Completer* completer, const CompletionRequest& request) {
  std::vector<std::string> matches;
  if (completer && *completer) {
    matches = (*completer)(request);
  } else {
    for (auto& value : schema_values(schema))
      if (value.compare(0, request.value.size(), request.value) == 0) matches.push_back(std::move(value));
  }
  Completion out;
  out.total = matches.size();
  if (matches.size() > Completion::kMaxValues) matches.resize(Completion::kMaxValues);
  out.values = std::move(matches);
  out.has_more = out.total > out.values.size();
  return out;
}

}  // namespace ptc
