#include <ptc/error.hpp>

namespace ptc {

std::string Error::to_string() const {
  if (column == 0) return message;
  std::string where = line > 1 ? "line " + std::to_string(line) + ", column " + std::to_string(column)
                               : "column " + std::to_string(column);
  return where + ": " + message;
}

}  // namespace ptc
