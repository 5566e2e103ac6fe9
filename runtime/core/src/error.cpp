#include <ptc/error.hpp>

namespace ptc {

std::string Error::to_string() const {
  if (column == 0) return message;
  // Appended piece by piece: g++ 12 at -O3 warns (-Wrestrict, GCC bug 105651) on `"literal" + string`.
  std::string text;
  if (line > 1) text.append("line ").append(std::to_string(line)).append(", ");
  text.append("column ").append(std::to_string(column)).append(": ").append(message);
  return text;
}

}  // namespace ptc
