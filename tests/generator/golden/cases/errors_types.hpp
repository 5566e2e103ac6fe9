#pragma once
// Types ptc cannot map: each is reported at its declaration with a recommendation, all in one run.

#include <functional>
#include <map>
#include <string>
#include <thread>

#include <ptc/annotate.hpp>

namespace golden::errors {

union Number {
  int i;
  float f;
};

struct Handle {
  int* raw;
};

/// Raw pointer parameter.
PTC_TOOL() int by_pointer(const char* text);
/// Non-const reference parameter.
PTC_TOOL() int by_reference(std::string& text);
/// Callback parameter.
PTC_TOOL() int with_callback(std::function<void(int)> done);
/// Function pointer parameter.
PTC_TOOL() int with_function_pointer(void (*done)(int));
/// Thread parameter.
PTC_TOOL() int with_thread(std::thread worker);
/// Union parameter.
PTC_TOOL() int with_union(Number n);
/// Map with integer keys.
PTC_TOOL() std::map<int, std::string> int_keys();
/// Struct with a pointer field.
PTC_TOOL() Handle handle();

}  // namespace golden::errors
