// Definitions of the functions declared in cases/hints.hpp, so its generated code links.
#include "cases/hints.hpp"

namespace golden::hints {

std::string lookup(std::string word) { return word; }
int file_note(std::string text) { return static_cast<int>(text.size()); }
bool set_flag(bool on) { return on; }
int erase_all() { return 0; }
int unmarked(int x) { return x; }
int Store::count() const { return 0; }
int Store::add(std::string item) { return static_cast<int>(item.size()); }

}  // namespace golden::hints
