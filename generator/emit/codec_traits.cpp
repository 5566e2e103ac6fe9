#include "emit/codec_traits.hpp"

#include <algorithm>
#include <cstdint>
#include <cctype>
#include <set>
#include <stdexcept>
#include <optional>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <ptc/json_text.hpp>
#include <ptc/signature.hpp>

#include "emit/code_writer.hpp"
#include "emit/cpp_text.hpp"
#include "model/schema.hpp"

namespace ptcgen::emit {

namespace {

/// One JSON field of a struct or of a tool's arguments, as its traits read and write it.
struct FieldCode {
  std::string json_name;
  std::string member;
  std::string codec_type;  ///< the member's C++ type
  bool nullable = false;   ///< std::optional or a smart pointer: FieldInfo::optional, checks apply to *member
  std::optional<std::string> default_cpp;
  std::optional<ptc::Schema> check;
  const model::Type* type = nullptr;  ///< the field's or parameter's type in the model
};

/// `"name":`, as TextWriter writes the key.
std::string json_key(const std::string& name) { return ptc::compact_text(nlohmann::json(name)) + ":"; }

std::string field_infos(const std::vector<FieldCode>& fields) {
  std::string out;
  for (const auto& f : fields) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{{{}, {}, {}}}", string_literal(f.json_name), f.nullable, f.default_cpp.has_value());
  }
  return out;
}

std::string constraint_function(const FieldCode& f) { return "constraint_" + f.member; }

// A checked integer of a type other than std::int64_t, whose codec would report the type's own bounds
// (`[:>= 0]` of an unsigned type, the range of a narrow one) where the schema has the check's bounds.
const model::Type* checked_integer(const FieldCode& f) {
  const model::Type& type = *f.type;
  const model::Type& inner = f.nullable && !type.args.empty() ? type.args.front() : type;
  if (!f.check || inner.kind != model::TypeKind::Integer || (inner.is_signed && inner.bits == 64)) return nullptr;
  return &inner;
}

std::string decode_statement(const FieldCode& f) {
  std::string out = fmt::format("return Codec<{}>::decode(d, v, out.{})", f.codec_type, f.member);
  if (f.check) {
    const std::string call = fmt::format("{}()", constraint_function(f));
    if (f.nullable)
      out += fmt::format(" && (!out.{0} || check(d, {1}, to_json_value(*out.{0})))", f.member, call);
    else
      out += fmt::format(" && check(d, {}, to_json_value(out.{}))", call, f.member);
  }
  return out + ";";
}

// A checked_integer is read as std::int64_t (detail::decode_wide, which refuses an integral float beyond
// the type) and checked as the schema says; only then must it fit the C++ type (which a range wider than
// the type's does not ensure), with the codecs' own message. A value that
// fits is kept even when the check fails, as a checked value of another type is: WarnOnly and Disabled
// run on it. One that does not fit is refused in every mode, by the check's message when the check
// failed (Decoder::refuse).
void write_integer_case(CodeWriter& w, std::size_t index, const FieldCode& f, const model::Type& integer) {
  const std::string& t = integer.cpp;
  w.open(fmt::format("case {}:", index));
  if (f.nullable) {
    w.line("std::optional<std::int64_t> read;");
    w.line(fmt::format("const bool decoded = detail::decode_wide<{}>(d, v, read);", t));
    w.line(fmt::format("out.{}.reset();", f.member));
    w.line("if (!decoded || !read) return decoded;");
    w.line("const std::int64_t wide = *read;");
  } else {
    w.line("std::int64_t wide = 0;");
    w.line(fmt::format("if (!detail::decode_wide<{}>(d, v, wide)) return false;", t));
  }
  w.line(fmt::format("const bool fits = std::in_range<{}>(wide);", t));
  w.line(fmt::format("const bool checked = check(d, {}(), to_json_value(wide), fits);", constraint_function(f)));
  w.line(
      fmt::format("if (!fits) return checked && detail::int_outside(d, wide, {1}, "
                  "std::numeric_limits<{0}>::min(), std::numeric_limits<{0}>::max());",
                  t, !integer.is_signed));
  const std::string value = fmt::format("static_cast<{}>(wide)", t);
  if (f.nullable && f.type->wrapper != "std::optional")
    w.line(fmt::format("out.{} = {}<{}>({});", f.member,
                       f.type->wrapper == "std::unique_ptr" ? "std::make_unique" : "std::make_shared", t, value));
  else
    w.line(fmt::format("out.{} = {};", f.member, value));
  w.line("return checked;");
  w.close();
}

// The most fields a struct may have for ptc-gen to write its clean reader: one bit each in a word,
// as the runtime's key buckets (detail::kBucketedFields).
constexpr std::size_t kCleanFields = 64;

// Whether a key whose bytes equal the name is the name: no quote or backslash in it.
bool plain_name(const std::string& name) { return name.find_first_of("\\\"") == std::string::npos; }

// How read_clean reads field `index`. A field with a default, a check or a checked integer is read by
// decode_field, as the generic walk reads it, with the optimistic decoder noting a surprise; the others
// by the type's clean read (detail::Clean).
std::string clean_read(std::size_t index, const FieldCode& f) {
  if (f.default_cpp)
    return fmt::format(
        "return detail::take_null(value) ? (fill_default({0}, out), true) : decode_field(d, {0}, value, out) && "
        "!d.surprised();",
        index);
  if (f.check) return fmt::format("return decode_field(d, {}, value, out) && !d.surprised();", index);
  return fmt::format("return detail::Clean<{}>::read(d, value, out.{});", f.codec_type, f.member);
}

// The struct's decoder for the optimistic pass (detail/clean.hpp): false at the first key that is
// undeclared, written with escapes or repeated, at the first value it does not take as it stands, and
// when a required field is missing; the document is then decoded again by the reporting decoder.
// Every field is assigned or reset, so `out` needs no clearing first.
void write_clean_reader(CodeWriter& w, const std::string& type, const std::vector<FieldCode>& fields) {
  if (fields.empty() || fields.size() > kCleanFields) return;
  for (const auto& f : fields)
    if (!plain_name(f.json_name)) return;
  std::uint64_t required = 0;
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (!fields[i].nullable && !fields[i].default_cpp) required |= std::uint64_t{1} << i;
  w.open(fmt::format("static bool read_clean(Decoder& d, Value& v, {}& out)", type));
  w.line("std::uint64_t seen = 0;");
  w.open(fmt::format(
      "const bool read = detail::read_clean_object(d, v, fields, Codec<{}>::keys, seen, [&](std::size_t i, Value& "
      "value)",
      type));
  w.open("switch (i)");
  for (std::size_t i = 0; i < fields.size(); ++i) w.line(fmt::format("case {}: {}", i, clean_read(i, fields[i])));
  w.close();
  w.line("return false;");
  w.close("});");
  w.line(required ? fmt::format("if (!read || (seen & {0:#x}u) != {0:#x}u) return false;", required)
                  : "if (!read) return false;");
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (required >> i & 1) continue;
    const std::string absent = fields[i].default_cpp ? fmt::format("fill_default({}, out);", i)
                                                     : fmt::format("out.{}.reset();", fields[i].member);
    w.line(fmt::format("if (!(seen >> {} & 1)) {}", i, absent));
  }
  w.line("return true;");
  w.close();
}

void write_struct_traits(CodeWriter& w, const std::string& type, const std::vector<FieldCode>& fields) {
  w.open(fmt::format("template <> struct StructTraits<{}>", type));
  if (fields.empty())
    w.line("static constexpr std::array<FieldInfo, 0> fields{};");
  else
    w.line(fmt::format("static constexpr std::array<FieldInfo, {}> fields{{{{{}}}}};", fields.size(),
                       field_infos(fields)));
  // The members' types, for checks made at compile time (ToolContext::elicit<T> refuses a T whose
  // fields MCP elicitation cannot ask for).
  std::string types;
  for (const auto& f : fields) types += (types.empty() ? "" : ", ") + f.codec_type;
  w.line(fmt::format("using field_types = std::tuple<{}>;", types));

  for (const auto& f : fields) {
    if (!f.check) continue;
    // A function-local static: parsed on first use, never during static initialization.
    w.open(fmt::format("static const ptc::Schema& {}()", constraint_function(f)));
    w.line(fmt::format("static const ptc::Schema schema = ptc::parse_malli_type({}).value();",
                       raw_string(ptc::to_malli(*f.check))));
    w.line("return schema;");
    w.close();
  }

  w.open(fmt::format("static bool decode_field(Decoder& d, std::size_t index, Value& v, {}& out)", type));
  if (fields.empty()) {
    w.line("(void)d;").line("(void)index;").line("(void)v;").line("(void)out;");
  } else {
    w.open("switch (index)");
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (const model::Type* integer = checked_integer(fields[i]))
        write_integer_case(w, i, fields[i], *integer);
      else
        w.line(fmt::format("case {}: {}", i, decode_statement(fields[i])));
    }
    w.close();
  }
  w.line("return true;");
  w.close();

  w.open(fmt::format("static void fill_default(std::size_t index, {}& out)", type));
  bool any_default = false;
  for (const auto& f : fields) any_default = any_default || f.default_cpp.has_value();
  if (!any_default) {
    w.line("(void)index;").line("(void)out;");
  } else {
    w.open("switch (index)");
    for (std::size_t i = 0; i < fields.size(); ++i)
      if (fields[i].default_cpp)
        w.line(fmt::format("case {}: out.{} = {}; return;", i, fields[i].member, *fields[i].default_cpp));
    w.close();
  }
  w.close();

  write_clean_reader(w, type, fields);

  w.open(fmt::format("template <class W> static void encode_fields(W& w, const {}& value)", type));
  if (fields.empty()) w.line("(void)w;").line("(void)value;");
  // In key order, the order nlohmann and TextWriter print objects in, each key with its JSON text
  // written out here: TextWriter then copies the key and sorts nothing.
  std::vector<const FieldCode*> by_key;
  for (const auto& f : fields) by_key.push_back(&f);
  std::stable_sort(by_key.begin(), by_key.end(),
                   [](const FieldCode* a, const FieldCode* b) { return a->json_name < b->json_name; });
  for (const auto* f : by_key)
    w.line(fmt::format("w.key(KnownKey{{{}, {}}}); Codec<{}>::encode(w, value.{});", string_literal(f->json_name),
                       string_literal(json_key(f->json_name)), f->codec_type, f->member));
  w.close();
  w.close("};");
}

void write_enum_traits(CodeWriter& w, const model::Enum& e) {
  w.open(fmt::format("template <> struct EnumTraits<{}>", e.cpp));
  std::string entries;
  for (const auto& x : e.enumerators) {
    if (!entries.empty()) entries += ", ";
    entries += fmt::format("{{{}, {}}}", string_literal(x.name), x.cpp);
  }
  if (e.enumerators.empty())
    w.line(fmt::format("static constexpr std::array<EnumEntry<{}>, 0> entries{{}};", e.cpp));
  else
    w.line(fmt::format("static constexpr std::array<EnumEntry<{}>, {}> entries{{{{{}}}}};", e.cpp, e.enumerators.size(),
                       entries));
  w.close("};");
}

// Parsed on first use, never during static initialization; the text reads back as exactly the schema
// (plan_types checked it).
void write_schema_of(CodeWriter& w, const std::string& type, const std::string& malli) {
  w.open(fmt::format("template <> struct SchemaOf<{}>", type));
  w.open("static const ptc::Schema& get()");
  w.line(fmt::format("static const ptc::Schema schema = ptc::parse_malli_type({}).value();", raw_string(malli)));
  w.line("return schema;");
  w.close();
  w.close("};");
}

const std::string& malli_of(const Plan& plan, const std::string& name) {
  auto it = plan.type_malli.find(name);
  if (it == plan.type_malli.end()) throw std::logic_error("ptc-gen: no schema was planned for " + name);
  return it->second;
}

// A macro naming the type, one for each type: letters and digits as they are, every other character
// as `_` and a capital letter ("::" is "_N", "_" is "_U"), so that no two types share one and no
// reserved "__" appears.
std::string guard_macro(std::string_view cpp) {
  if (cpp.starts_with("::")) cpp.remove_prefix(2);
  std::string out = "PTC_GEN_CODEC_";
  for (std::size_t i = 0; i < cpp.size(); ++i) {
    const char c = cpp[i];
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += c;
    } else if (cpp.substr(i, 2) == "::") {
      out += "_N";
      ++i;
    } else {
      switch (c) {
        case '_': out += "_U"; break;
        case '<': out += "_L"; break;
        case '>': out += "_G"; break;
        case ',': out += "_C"; break;
        case ' ': out += "_S"; break;
        case '-': out += "_M"; break;
        default: out += fmt::format("_X{:02X}", static_cast<unsigned char>(c));
      }
    }
  }
  return out;
}

std::vector<FieldCode> struct_fields(const model::Struct& s, const model::HeaderModel& header) {
  std::vector<FieldCode> out;
  for (const auto& f : s.fields) {
    FieldCode c;
    c.json_name = f.json_name;
    c.member = f.cpp_name;
    c.codec_type = f.type.cpp;
    c.nullable = model::is_optional(f.type);
    c.check = extra_check(model::value_schema(f.type, f.constraints, header), f.type, header);
    c.type = &f.type;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<FieldCode> arg_fields(const ToolPlan& tool) {
  std::vector<FieldCode> out;
  for (const auto& a : tool.args) {
    FieldCode c;
    c.json_name = a.json_name;
    c.member = a.member;
    c.codec_type = a.stored_type;
    c.nullable = a.nullable;
    if (a.fills_default) c.default_cpp = a.param->default_value->cpp;
    c.check = a.check;
    c.type = &a.param->type;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

std::string args_type(std::string_view stem, const ToolPlan& tool) {
  return fmt::format("::ptc_gen::{}::detail::{}_args", stem, tool.id);
}

std::string args_structs(const Plan& plan) {
  CodeWriter w;
  for (const auto& t : plan.tools) {
    if (!w.empty()) w.blank();
    w.open(fmt::format("struct {}_args", t.id));
    for (const auto& a : t.args) w.line(fmt::format("{} {}{{}};", a.stored_type, a.member));
    w.close("};");
  }
  return w.take();
}

std::string answer_traits(const model::HeaderModel& header, const Plan& plan) {
  const std::set<std::string> reached = model::reached_from_answers(header);
  CodeWriter w;
  // Guarded: the answer types of another header may reach the same type (one both headers include),
  // and a source may include both generated headers; the definitions are the same.
  const auto guarded = [&](const std::string& cpp, const auto& write) {
    if (!w.empty()) w.blank();
    const std::string macro = guard_macro(cpp);
    w.line("#ifndef " + macro).line("#define " + macro);
    write();
    w.line("#endif");
  };
  for (const auto& e : header.enums) {
    if (!reached.count(e.name)) continue;
    guarded(e.cpp, [&] {
      write_enum_traits(w, e);
      w.blank();
      write_schema_of(w, e.cpp, malli_of(plan, e.name));
    });
  }
  for (const auto& s : header.structs) {
    if (!reached.count(s.name)) continue;
    guarded(s.cpp, [&] {
      write_struct_traits(w, s.cpp, struct_fields(s, header));
      w.blank();
      write_schema_of(w, s.cpp, malli_of(plan, s.name));
    });
  }
  return w.take();
}

std::string codec_traits(const model::HeaderModel& header, const Plan& plan) {
  const std::set<std::string> in_header = model::reached_from_answers(header);
  CodeWriter w;
  for (const auto& e : header.enums) {
    if (in_header.count(e.name)) continue;
    if (!w.empty()) w.blank();
    write_enum_traits(w, e);
  }
  for (const auto& s : header.structs) {
    if (in_header.count(s.name)) continue;
    if (!w.empty()) w.blank();
    write_struct_traits(w, s.cpp, struct_fields(s, header));
  }
  for (const auto& t : plan.tools) {
    if (!w.empty()) w.blank();
    write_struct_traits(w, args_type(header.stem, t), arg_fields(t));
  }
  return w.take();
}

}  // namespace ptcgen::emit
