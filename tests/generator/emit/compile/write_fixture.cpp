// Writes what ptc-gen would emit for compile/shop/shop.hpp, from a hand-built model, into argv[1].

#include <fstream>
#include <iostream>

#include "emit/emit.hpp"
#include "model_fixture.hpp"

namespace ptcgen::test {
namespace {

model::HeaderModel compile_model() {
  auto h = shop_model();
  h.tools[0].examples.push_back({R"({"query": "crash", "limit": 1})",
                                 R"([{"id": 1, "title": "Issue 1 crash", "assignee": null, "_email": "x@y.z"}])",
                                 {}});

  const Type string_span = type(TypeKind::Sequence, "std::span<const std::string>", {string_type()});
  auto min_count = param("min_count", optional_of(int_type()));
  min_count.constraints.min = 1;
  min_count.constraints.max = 100;
  h.tools.push_back(tool("tally", "Counts words.", "::shop::tally", {param("words", string_span), min_count},
                         type(TypeKind::Map, "std::map<std::string, int>", {int_type()})));

  auto loud = param("loud", bool_type());
  loud.default_value = model::Default{false, "false"};
  auto describe = tool("describe", "Says what an issue is about.", "::shop::describe",
                       {param("issue", named(TypeKind::Struct, "shop::Issue")), loud}, string_type());
  describe.return_style = model::ReturnStyle::ToolResult;
  h.tools.push_back(describe);

  const Type pair = type(TypeKind::Tuple, "std::tuple<int, std::string>", {int_type(), string_type()});
  const Type tags = type(TypeKind::Set, "std::set<std::string>", {string_type()});
  const Type picked = type(TypeKind::Variant, "std::variant<std::monostate, int, std::string>",
                           {type(TypeKind::Monostate, "std::monostate"), int_type(), string_type()});
  h.tools.push_back(tool("pick", "Picks a value.", "::shop::pick", {param("pair", pair), param("tags", tags)}, picked));

  const Type ms = type(TypeKind::Duration, "std::chrono::milliseconds");
  auto wait = tool("wait", "Waits a while.", "::shop::wait",
                   {param("delay", ms), param("retries", int_type("unsigned int", 32, false))}, ms);
  wait.explicit_signature = "(delay_ms :int, retries :int[0..5]) -> :int";
  h.tools.push_back(wait);
  return h;
}

}  // namespace
}  // namespace ptcgen::test

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_fixture OUT_DIR\n";
    return 2;
  }
  const auto emitted = ptcgen::emit::emit_header(ptcgen::test::compile_model());
  for (const auto& e : emitted.errors) std::cerr << "error: " << e.message << "\n";
  if (!emitted.errors.empty()) return 1;
  for (const auto& f : emitted.files) {
    std::ofstream out(std::string(argv[1]) + "/" + f.name, std::ios::binary);
    out << f.content;
    if (!out) {
      std::cerr << "cannot write " << f.name << "\n";
      return 1;
    }
  }
  return 0;
}
