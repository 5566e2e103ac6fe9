// Definitions of the functions declared in cases/names.hpp, so its generated code links and runs.
#include "cases/names.hpp"

namespace golden::names {

Level set_level(Level level) { return level; }

User rename_user(User user, std::string name) {
  user.user_name = std::move(name);
  return user;
}

Echoed echo_text(std::string text, std::string pattern, Closer closer, std::string nul) {
  return Echoed{std::move(text), std::move(pattern), closer, std::move(nul)};
}

}  // namespace golden::names
