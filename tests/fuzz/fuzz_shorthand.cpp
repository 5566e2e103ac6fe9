// libFuzzer target: the shorthand signature parser and both printers.
//
// Oracle: a signature that parses renders to canonical shorthand that parses back to an equal
// signature (Signature::render() is documented as re-parseable), up to field docs: the shorthand
// printer drops `:doc` on purpose (shorthand_printer.cpp: "Docs are presentation"). Parsers report errors as values, so
// any exception escaping them is a bug too (libFuzzer reports it as a crash via std::terminate).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <ptc/signature.hpp>

#include "fuzz_common.hpp"

namespace {

ptc::Schema strip_docs(const ptc::Schema& s);

std::vector<ptc::MapEntry> strip_docs(const std::vector<ptc::MapEntry>& entries) {
  std::vector<ptc::MapEntry> out = entries;
  for (auto& e : out) {
    e.doc.clear();
    e.schema = strip_docs(e.schema);
  }
  return out;
}

std::vector<ptc::Schema> strip_docs(const std::vector<ptc::Schema>& xs) {
  std::vector<ptc::Schema> out;
  for (const auto& x : xs) out.push_back(strip_docs(x));
  return out;
}

ptc::Schema strip_docs(const ptc::Schema& s) {
  using ptc::Kind;
  switch (s.kind()) {
    case Kind::Vector: return ptc::Schema::vector(strip_docs(s.item()));
    case Kind::Sequential: return ptc::Schema::sequential(strip_docs(s.item()));
    case Kind::Set: return ptc::Schema::set(strip_docs(s.item()));
    case Kind::Maybe: return ptc::Schema::maybe(strip_docs(s.item()));
    case Kind::Map: return ptc::Schema::map(strip_docs(s.entries()));
    case Kind::MapOf: return ptc::Schema::map_of(strip_docs(s.key()), strip_docs(s.value()));
    case Kind::Tuple: return ptc::Schema::tuple(strip_docs(s.children()));
    case Kind::Or: return ptc::Schema::one_of(strip_docs(s.children()));
    case Kind::And: return ptc::Schema::all_of(strip_docs(s.children()));
    default: return s;  // primitives, enums and refinements hold no entries
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = ptc_fuzz::as_text(data, size);
  auto sig = ptc::Signature::parse(text);
  if (!sig) {
    (void)sig.error().to_string();
    return 0;
  }

  const std::string shorthand = sig->render();
  const std::string malli = sig->to_malli();
  (void)malli;

  auto again = ptc::Signature::parse(shorthand);
  if (!again)
    ptc_fuzz::oracle_failure("render() of a parsed signature does not parse", "input", text, "render()",
                             shorthand + "  -- error: " + again.error().to_string());
  if (!(*again == *sig) && !(*again == ptc::Signature(strip_docs(sig->params()), strip_docs(sig->output()))))
    ptc_fuzz::oracle_failure("parse(render(s)) != s (ignoring docs)", "input", text, "render()",
                             shorthand + "  -- re-rendered: " + again->render());
  return 0;
}
