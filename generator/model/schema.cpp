#include "model/schema.hpp"

#include <nlohmann/json.hpp>

#include <ptc/coercion.hpp>
#include <ptc/validate.hpp>

#include "model/explicit_signature.hpp"
#include "model/refine.hpp"

namespace ptcgen::model {

namespace {

using ptc::Schema;

[[noreturn]] void fail(std::string message) { throw ptc::Exception(ptc::Error{std::move(message)}); }

const Type& arg(const Type& type, std::size_t i) {
  if (type.args.size() <= i) fail("the model's type " + type.cpp + " lacks its type arguments");
  return type.args[i];
}

std::vector<Schema> schemas_of(const std::vector<Type>& types, const HeaderModel& header) {
  std::vector<Schema> out;
  out.reserve(types.size());
  for (const auto& t : types) out.push_back(schema_of(t, header));
  return out;
}

Schema enum_schema(const Type& type, const HeaderModel& header) {
  const Enum* e = header.find_enum(type.name);
  if (!e) fail("enum " + type.name + " is not in the header's model");
  std::vector<nlohmann::json> names;
  for (const auto& x : e->enumerators) names.emplace_back(x.name);
  return Schema::enumeration(std::move(names));
}

Schema struct_schema(const Type& type, const HeaderModel& header) {
  const Struct* s = header.find_struct(type.name);
  if (!s) fail("struct " + type.name + " is not in the header's model");
  std::vector<ptc::MapEntry> entries;
  for (const auto& f : s->fields) {
    ptc::MapEntry e(f.json_name, value_schema(f.type, f.constraints, header), is_optional(f.type));
    e.doc = f.doc;
    entries.push_back(std::move(e));
  }
  return Schema::map(std::move(entries));
}

// An integer type's (or a duration count's) values: the range of a type narrower than 32 bits, which
// a model easily oversteps (300 for a std::uint8_t), is part of the schema, so the prompt and JSON
// Schema show it; wider types show `>= 0` when unsigned, and their decoders still check the range.
Schema integer_schema(const Type& type) {
  if (type.bits < ptc::coercion::kRangeInSchemaBelowBits) {
    const std::int64_t max =
        type.is_signed ? (std::int64_t{1} << (type.bits - 1)) - 1 : (std::int64_t{1} << type.bits) - 1;
    return Schema::all_of({Schema::integer(), Schema::refinement(ptc::Refine::Ge, type.is_signed ? -max - 1 : 0),
                           Schema::refinement(ptc::Refine::Le, max)});
  }
  if (type.is_signed) return Schema::integer();
  return Schema::all_of({Schema::integer(), Schema::refinement(ptc::Refine::Ge, std::int64_t{0})});
}

Schema bound(ptc::Refine op, const nlohmann::json& value, ptc::Kind kind) {
  if (value.is_number_integer() && !value.is_number_unsigned())
    return Schema::refinement(op, value.get<std::int64_t>());
  if (value.is_number_unsigned() && value.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT64_MAX))
    return Schema::refinement(op, static_cast<std::int64_t>(value.get<std::uint64_t>()));
  if (value.is_number_unsigned() && kind == ptc::Kind::Int) {
    // :int is int64: an upper bound beyond it (PTC_RANGE(0, UINT64_MAX) on a std::uint64_t) holds every
    // value, and stays an exact integer rather than becoming a float; a lower bound beyond it no value meets.
    if (op == ptc::Refine::Le) return Schema::refinement(op, std::int64_t{INT64_MAX});
    fail("PTC_RANGE's lower bound " + value.dump() + " is beyond int64 (:int): no value would pass");
  }
  if (value.is_number()) return Schema::refinement(op, value.get<double>());
  fail("PTC_RANGE bounds must be numbers, got " + value.dump());
}

std::vector<Schema> constraint_refinements(const Schema& base, const Constraints& c) {
  std::vector<Schema> out;
  const ptc::Kind kind = unrefined(base).kind();
  if (c.min || c.max) {
    if (kind != ptc::Kind::Int && kind != ptc::Kind::Float) fail("PTC_RANGE refines numbers, not " + ptc::render(base));
    if (c.min) out.push_back(bound(ptc::Refine::Ge, *c.min, kind));
    if (c.max) out.push_back(bound(ptc::Refine::Le, *c.max, kind));
  }
  if (c.pattern) {
    if (kind != ptc::Kind::String) fail("PTC_PATTERN refines strings, not " + ptc::render(base));
    if (auto why = Schema::pattern_error(*c.pattern))
      fail("PTC_PATTERN \"" + *c.pattern + "\" is not valid RE2: " + *why);
    out.push_back(Schema::pattern(*c.pattern));
  }
  return out;
}

Schema result_schema(const Tool& tool, const HeaderModel& header) {
  switch (tool.return_style) {
    case ReturnStyle::Void: return Schema::nil();
    case ReturnStyle::Expected:
      if (tool.result.kind != TypeKind::Expected)
        fail("the result type " + tool.result.cpp + " is not a std::expected");
      return schema_of(tool.result, header);
    case ReturnStyle::Value:
    case ReturnStyle::ToolResult: return schema_of(tool.result, header);
  }
  return Schema::any();
}

}  // namespace

bool is_optional(const Type& type) { return type.kind == TypeKind::Optional; }

Schema schema_of(const Type& type, const HeaderModel& header) {
  switch (type.kind) {
    case TypeKind::String:
    case TypeKind::StringView: return Schema::string();
    case TypeKind::TimePoint: return Schema::string("date-time");
    case TypeKind::Date: return Schema::string("date");
    case TypeKind::Bool: return Schema::boolean();
    case TypeKind::Integer:
    case TypeKind::Duration: return integer_schema(type);
    case TypeKind::Float: return Schema::number();
    case TypeKind::Enum: return enum_schema(type, header);
    case TypeKind::Struct: return struct_schema(type, header);
    case TypeKind::Sequence: return Schema::vector(schema_of(arg(type, 0), header));
    case TypeKind::Array: return Schema::vector(schema_of(arg(type, 0), header), type.array_size);
    case TypeKind::Set: return Schema::set(schema_of(arg(type, 0), header));
    case TypeKind::Map: return Schema::map_of(Schema::string(), schema_of(arg(type, 0), header));
    case TypeKind::Optional: return Schema::maybe(schema_of(arg(type, 0), header));
    case TypeKind::Variant: return Schema::one_of(schemas_of(type.args, header));
    case TypeKind::Monostate:
    case TypeKind::Void: return Schema::nil();
    case TypeKind::Tuple: return Schema::tuple(schemas_of(type.args, header));
    case TypeKind::Expected:
      return Schema::map({ptc::MapEntry("result", schema_of(arg(type, 0), header)),
                          ptc::MapEntry("error", schema_of(arg(type, 1), header), true)});
    case TypeKind::Json:
    case TypeKind::Recursive: return Schema::any();
    case TypeKind::DepthLimit: return Schema::any_map();
  }
  fail("unknown type kind of " + type.cpp);
}

Schema value_schema(const Type& type, const Constraints& constraints, const HeaderModel& header) {
  const Schema base = schema_of(is_optional(type) ? arg(type, 0) : type, header);
  if (constraints.empty()) return base;
  return refine(base, constraint_refinements(base, constraints));
}

ptc::Result<ptc::Signature> derived_signature(const Tool& tool, const HeaderModel& header) {
  std::vector<ptc::MapEntry> params;
  std::string where;
  try {
    for (const auto& p : tool.params) {
      where = "parameter '" + p.name + "': ";
      ptc::MapEntry e(p.name, value_schema(p.type, p.constraints, header), is_optional(p.type) || p.default_value);
      e.doc = p.doc;
      // A null default (std::nullopt, `{}`) says what absence already says.
      if (p.default_value && !p.default_value->value.is_null()) {
        auto check = ptc::validate(e.schema, p.default_value->value, {ptc::Direction::Output, ptc::Mode::Strict});
        if (!check.ok)
          fail("the default " + p.default_value->cpp + " does not match " + ptc::render(e.schema) + ": " +
               check.errors.front().message);
        e.with_default(p.default_value->value);
      }
      params.push_back(std::move(e));
    }
    where = "result: ";
    Schema result = result_schema(tool, header);
    where.clear();
    return ptc::Signature(std::move(params), std::move(result));
  } catch (const ptc::Exception& e) {
    return ptc::Error{"tool '" + tool.name + "': " + where + e.error().message};
  }
}

ptc::Result<ptc::Signature> signature_of(const Tool& tool, const HeaderModel& header) {
  auto derived = derived_signature(tool, header);
  if (!derived || !tool.explicit_signature) return derived;
  auto reconciled = reconcile_explicit_signature(tool, *derived);
  if (!reconciled.errors.empty()) return ptc::Error{reconciled.errors.front()};
  return std::move(reconciled.signature);
}

std::vector<std::string> check_explicit_signature(const Tool& tool, const HeaderModel& header) {
  if (!tool.explicit_signature) return {};
  auto derived = derived_signature(tool, header);
  if (!derived) return {};
  return reconcile_explicit_signature(tool, *derived).errors;
}

}  // namespace ptcgen::model
