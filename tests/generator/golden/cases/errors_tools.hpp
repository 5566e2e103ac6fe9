#pragma once
// Mistakes in tool declarations.

#include <string>
#include <vector>

#include <ptc/annotate.hpp>

namespace golden::errors {

std::string make_default();

PTC_TOOL() int undocumented(int x);

/// Default argument that is not a literal.
PTC_TOOL() std::string computed_default(std::string text = make_default());

/// The explicit signature disagrees with the C++ types.
PTC_TOOL() PTC_SIGNATURE("(count :string) -> :int") int mismatch(int count);

/// The example is not JSON.
PTC_TOOL() PTC_EXAMPLE("{x: 1}", "2") int bad_example(int x);

/// Claims to change nothing and to destroy data.
PTC_TOOL() PTC_READ_ONLY PTC_DESTRUCTIVE int contradictory(int x);

/// Claims to only add and to destroy data.
PTC_TOOL() PTC_ADDITIVE PTC_DESTRUCTIVE int adds_and_destroys(int x);

/// Claims to change nothing and to add.
PTC_TOOL() PTC_READ_ONLY PTC_ADDITIVE int reads_and_adds(int x);

/// Titles are ASCII, like descriptions.
PTC_TOOL() PTC_TITLE("Convertir la température") int accented_title(int x);

/// Hints describe tools, not their parameters.
PTC_TOOL() int hinted_parameter(PTC_READ_ONLY int x);

class Widget {
 public:
  /// Static member functions have no instance to call.
  PTC_TOOL() static int make();
};

}  // namespace golden::errors
