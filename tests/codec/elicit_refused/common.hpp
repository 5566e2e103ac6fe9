// What every case needs: a handler's context, and a StructTraits with only what elicit<T>'s compile-time
// checks read (the fields and their types).
#pragma once

#include <array>
#include <string>
#include <tuple>
#include <vector>

#include <ptc/codec/elicit.hpp>

#define ELICIT_REFUSED_TRAITS(TYPE, COUNT, ...)             \
  template <>                                               \
  struct ptc::codec::StructTraits<TYPE> {                   \
    static constexpr std::array<FieldInfo, COUNT> fields{}; \
    using field_types = std::tuple<__VA_ARGS__>;            \
  }

inline void ask(ptc::ToolContext& context, auto tag) {
  auto answer = context.elicit<typename decltype(tag)::type>("Which one?");
  (void)answer;
}
