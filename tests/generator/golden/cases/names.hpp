#pragma once
// Renaming with PTC_NAME (enumerators and fields), and text that generated C++ must carry intact:
// raw-string terminators, long runs of candidate delimiters, backslashes, trigraph-like ??=, quotes,
// non-ASCII and control characters in docs, defaults, patterns, enumerator names and examples.

#include <string>
#include <vector>

#include <ptc/annotate.hpp>

namespace golden::names {

/// Google style in C++, lower case for the model.
enum class Level { kLow PTC_NAME("low"), kHigh PTC_NAME("high") };

/// A user as the model sees it: camelCase keys from snake_case members.
struct User {
  std::string user_name PTC_NAME("userName");
  Level level PTC_NAME("accessLevel");
  /// Kept from the model under its own name.
  std::string api_token PTC_NAME("token") PTC_FIREWALL;
};

/// Sets a level; returns the one it replaced.
PTC_TOOL() Level set_level(Level level = Level::kHigh);

/// Renames a user.
PTC_TOOL() User rename_user(User user, std::string name);

/// Enumerators named like what closes a raw string: every delimiter up to ptc10 is taken in the
/// signature, whose enum values print as `")ptc0"`.
enum class Closer {
  k0 PTC_NAME(")ptc"),
  k1 PTC_NAME(")ptc0"),
  k2 PTC_NAME(")ptc1"),
  k3 PTC_NAME(")ptc2"),
  k4 PTC_NAME(")ptc3"),
  k5 PTC_NAME(")ptc4"),
  k6 PTC_NAME(")ptc5"),
  k7 PTC_NAME(")ptc6"),
  k8 PTC_NAME(")ptc7"),
  k9 PTC_NAME(")ptc8"),
  k10 PTC_NAME(")ptc9"),
  k11 PTC_NAME(")ptca"),
  k12 PTC_NAME(")ptcb"),
  k13 PTC_NAME(")ptcc"),
  k14 PTC_NAME(")ptcd"),
  k15 PTC_NAME(")ptce"),
  k16 PTC_NAME(")ptcf"),
  k17 PTC_NAME(")ptcg"),
  k18 PTC_NAME(")ptch"),
  k19 PTC_NAME(")ptci"),
  k20 PTC_NAME(")ptcj"),
  k21 PTC_NAME(")ptck"),
  k22 PTC_NAME(")ptcl"),
  k23 PTC_NAME(")ptcm"),
  k24 PTC_NAME(")ptcn"),
  k25 PTC_NAME(")ptco"),
  k26 PTC_NAME(")ptcp"),
  k27 PTC_NAME(")ptcq"),
  k28 PTC_NAME(")ptcr"),
  k29 PTC_NAME(")ptcs"),
  k30 PTC_NAME(")ptct"),
  k31 PTC_NAME(")ptcu"),
  k32 PTC_NAME(")ptcv"),
  k33 PTC_NAME(")ptcw"),
  k34 PTC_NAME(")ptcx"),
  k35 PTC_NAME(")ptcy"),
  k36 PTC_NAME(")ptcz"),
  k37 PTC_NAME(")ptc10"),
  quoted PTC_NAME("\")ptc\""),
  bare PTC_NAME(")\""),
  escaped PTC_NAME("\\)ptc2\\\""),
};

/// What echo_text received.
struct Echoed {
  std::string text;
  std::string pattern;
  Closer closer;
  std::string nul;
};

/// Text every way it can travel into generated code: a trigraph-like ??= stays, as do )ptc" and \ .
PTC_TOOL()
PTC_EXAMPLE(
    R"({"text": ")ptc\")ptc0\")ptc1\" \\ ??= caf\u00e9", "closer": ")ptc"})",
    R"({"text": ")ptc\")ptc0\")ptc1\" \\ ??= caf\u00e9", "pattern": "x)\"", "closer": ")ptc", "nul": "a\u0000b"})")
    Echoed echo_text(std::string text PTC_DOC(R"doc(ends like a raw string: )ptc" )ptc0" )ptc1" )" \ ??= ??/ )doc"
                                              "caf\u00e9 \u65e5\u672c \t tab \x01 end)ptc") = R"x()ptc")ptc0" \n ??= )x"
                                                                                              "caf\u00e9",
                     PTC_PATTERN(R"re(^[a-z]*\)"$)re") std::string pattern = "x)\"", Closer closer = Closer::quoted,
                     std::string nul = "a\0b");

}  // namespace golden::names
