#pragma once
// A validator's value as a codec holds it, for tests that compare the two (tests/support/
// codec_differential.hpp, tests/fuzz/fuzz_codec.cpp): declared fields only, absent optional fields
// null, sets sorted (a C++ set's order is its own). Values that do not fit the schema are kept as
// given, so it is safe on any input. No gtest here: the fuzzers include it too.

#include <algorithm>
#include <cstddef>

#include <nlohmann/json.hpp>

#include <ptc/schema.hpp>
#include <ptc/validate.hpp>

namespace ptc::test {

inline nlohmann::json normalized(const Schema& s, const nlohmann::json& v) {
  using json = nlohmann::json;
  switch (s.kind()) {
    case Kind::Maybe: return v.is_null() ? v : normalized(s.item(), v);
    case Kind::And: return normalized(s.children().front(), v);
    case Kind::Or:
      for (const auto& alt : s.children())
        if (validate(alt, v, {Direction::Output, Mode::Enabled}).ok) return normalized(alt, v);
      return v;
    case Kind::Vector:
    case Kind::Sequential:
    case Kind::Set:
    case Kind::Tuple: {
      if (!v.is_array()) return v;
      json out = json::array();
      for (std::size_t i = 0; i < v.size(); ++i) {
        if (s.kind() == Kind::Tuple && i >= s.children().size()) {
          out.push_back(v[i]);  // a tuple's extra items stay as given
        } else {
          out.push_back(normalized(s.kind() == Kind::Tuple ? s.children()[i] : s.item(), v[i]));
        }
      }
      if (s.kind() == Kind::Set) std::sort(out.begin(), out.end());
      return out;
    }
    case Kind::MapOf: {
      if (!v.is_object()) return v;
      json out = json::object();
      for (auto it = v.begin(); it != v.end(); ++it) out[it.key()] = normalized(s.value(), it.value());
      return out;
    }
    case Kind::Map: {
      if (!v.is_object()) return v;
      json out = json::object();
      for (const auto& e : s.entries()) {
        auto it = v.find(e.name);
        out[e.name] = it == v.end() ? json(nullptr) : normalized(e.schema, *it);
      }
      return out;
    }
    default: return v;
  }
}

}  // namespace ptc::test
