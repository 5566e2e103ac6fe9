#pragma once
// Agent::run<T>: a run whose answer is a C++ value, decoded by T's codec (ptc::codec) after the answer
// has been checked against T's schema and re-asked until it held.

#include <string>
#include <utility>

#include <ptc/agent/agent.hpp>
#include <ptc/codec/codec.hpp>
#include <ptc/codec/schema_of.hpp>

namespace ptc::agent {

template <class T>
TypedRunResult<T> Agent::run(const std::string& task, Conversation history) {
  TypedRunResult<T> out{run(task, codec::schema_of<T>(), std::move(history)), std::nullopt};
  if (!out.ok()) return out;
  // The value has been checked against T's schema already; decoding it is the codec's part only.
  T value{};
  const Validation decoded =
      codec::decode_only(out.value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), value);
  if (!decoded.ok) {
    out.error = RunError{RunError::Kind::answer_invalid, "the answer does not decode: " + decoded.report()};
    return out;
  }
  out.answer = std::move(value);
  return out;
}

}  // namespace ptc::agent
