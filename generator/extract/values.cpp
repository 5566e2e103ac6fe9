#include "extract/values.hpp"

#include <cfloat>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <utility>

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <llvm/ADT/APFloat.h>

#include "model/no_throw.hpp"
#include "extract/doc_comment.hpp"
#include "text.hpp"

namespace ptcgen::extract::detail {

using namespace clang;

namespace {

const model::Type& unwrapped(const model::Type& t) {
  return t.kind == model::TypeKind::Optional && !t.args.empty() ? t.args[0] : t;
}

bool is_number(const model::Type& t) {
  const auto k = unwrapped(t).kind;
  return k == model::TypeKind::Integer || k == model::TypeKind::Float || k == model::TypeKind::Duration;
}

bool is_text(const model::Type& t) {
  const auto k = unwrapped(t).kind;
  return k == model::TypeKind::String || k == model::TypeKind::StringView;
}

bool is_integral(const model::Type& t) {
  const auto k = unwrapped(t).kind;
  return k == model::TypeKind::Integer || k == model::TypeKind::Duration;
}

/// The values a number type holds (an integer's or a duration count's, a float's finite ones);
/// nullopt for double, whose range is the JSON number's.
std::optional<std::pair<nlohmann::json, nlohmann::json>> type_range(const model::Type& t) {
  if (t.kind == model::TypeKind::Integer || t.kind == model::TypeKind::Duration) {
    if (t.bits == 0 || t.bits > 64) return std::nullopt;
    if (!t.is_signed)
      return std::pair{nlohmann::json(0),
                       nlohmann::json(t.bits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << t.bits) - 1)};
    const std::int64_t max = t.bits == 64 ? INT64_MAX : (std::int64_t{1} << (t.bits - 1)) - 1;
    return std::pair{nlohmann::json(-max - 1), nlohmann::json(max)};
  }
  if (t.kind == model::TypeKind::Float && t.cpp == "float")
    return std::pair{nlohmann::json(-static_cast<double>(FLT_MAX)), nlohmann::json(static_cast<double>(FLT_MAX))};
  return std::nullopt;
}

/// A JSON number as a long double: exact for every 64-bit integer on the platforms ptc-gen runs on.
long double number(const nlohmann::json& n) {
  if (n.is_number_unsigned()) return static_cast<long double>(n.get<std::uint64_t>());
  if (n.is_number_integer()) return static_cast<long double>(n.get<std::int64_t>());
  return static_cast<long double>(n.get<double>());
}

// --- default arguments ---------------------------------------------------------------------------

/// "e9" for 0xe9.
std::string hex_byte(char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  const auto byte = static_cast<unsigned char>(c);
  return {kHex[byte >> 4], kHex[byte & 15]};
}

/// Source text for a message, each byte that starts an invalid UTF-8 sequence written `\xNN`: a header
/// in another encoding must not make the diagnostic itself invalid text.
std::string printable(std::string_view text) {
  std::string out;
  while (auto at = ptc::text::invalid_utf8_at(text)) {
    out.append(text.substr(0, *at));
    out += "\\x" + hex_byte(text[*at]);
    text.remove_prefix(*at + 1);
  }
  out.append(text);
  return out;
}

/// What a default argument reduces to once conversions and constructor calls around it are peeled off.
struct Literal {
  enum Kind { Integer, Floating, Boolean, Text, Enumerator, Null, Empty, Other } kind = Other;
  bool negative = false;
  llvm::APInt magnitude;        ///< Integer
  llvm::APFloat floating{0.0};  ///< Floating (its own semantics)
  bool boolean = false;
  std::string text;
  const EnumConstantDecl* enumerator = nullptr;
  bool constant = false;  ///< Other: clang evaluated it, to a value of a kind no signature states
};

/// Strips implicit conversions, parentheses, temporaries and converting constructor calls
/// (`std::string("x")`, `std::optional<int>(5)`, `{5}`), which change how a value is held but not
/// which value it is.
const Expr* peel(const Expr* e) {
  while (true) {
    const Expr* next = e->IgnoreImplicit()->IgnoreParens();
    if (const auto* ce = llvm::dyn_cast<CXXConstructExpr>(next)) {
      unsigned given = 0;
      for (const Expr* a : ce->arguments())
        if (!llvm::isa<CXXDefaultArgExpr>(a)) ++given;
      if (given == 1 && ce->getNumArgs() >= 1 && !llvm::isa<CXXDefaultArgExpr>(ce->getArg(0))) next = ce->getArg(0);
    } else if (const auto* fc = llvm::dyn_cast<CXXFunctionalCastExpr>(next)) {
      next = fc->getSubExpr();
    } else if (const auto* il = llvm::dyn_cast<InitListExpr>(next)) {
      if (il->getNumInits() == 1) next = il->getInit(0);
    }
    if (next == e) return e;
    e = next;
  }
}

Literal read_literal(const Expr* expr);

/// The bytes of the ordinary or UTF-8 string literal `pointer` points into, from where it points.
std::optional<llvm::StringRef> literal_bytes(const APValue& pointer) {
  const auto* base = pointer.getLValueBase().dyn_cast<const Expr*>();
  const auto* literal = base ? llvm::dyn_cast<StringLiteral>(base) : nullptr;
  if (!literal || !(literal->isOrdinary() || literal->isUTF8()) || pointer.isNullPointer()) return std::nullopt;
  const llvm::StringRef bytes = literal->getString();
  const auto offset = static_cast<std::size_t>(pointer.getLValueOffset().getQuantity());
  if (offset > bytes.size()) return std::nullopt;
  return bytes.substr(offset);
}

/// The text a constant of a string type holds: a pointer into a string literal (up to its first NUL,
/// where a `const char*` reading it stops), a `char` array, or a string view (a struct of a pointer
/// into a literal and a length, in the standard library's layout).
std::optional<std::string> constant_text(const APValue& v) {
  if (v.isLValue()) {
    auto rest = literal_bytes(v);
    if (!rest) return std::nullopt;
    return rest->substr(0, rest->find('\0')).str();
  }
  if (v.isArray()) {
    std::string out;
    for (unsigned i = 0; i < v.getArrayInitializedElts(); ++i) {
      const APValue& c = v.getArrayInitializedElt(i);
      if (!c.isInt()) return std::nullopt;
      const auto byte = static_cast<char>(c.getInt().getExtValue());
      if (byte == '\0') return out;
      out += byte;
    }
    return out;
  }
  if (v.isStruct() && v.getStructNumBases() == 0 && v.getStructNumFields() == 2) {
    const APValue* pointer = nullptr;
    const APValue* length = nullptr;
    for (unsigned i = 0; i < 2; ++i) {
      const APValue& f = v.getStructField(i);
      if (f.isLValue()) pointer = &f;
      if (f.isInt()) length = &f;
    }
    auto rest = pointer && length ? literal_bytes(*pointer) : std::nullopt;
    const auto n = length ? static_cast<std::size_t>(length->getInt().getZExtValue()) : 0;
    if (!rest || n > rest->size()) return std::nullopt;
    return rest->substr(0, n).str();
  }
  return std::nullopt;
}

/// An integer constant as a Literal: its sign, and its magnitude unsigned (abs() of the most negative
/// value keeps its bits, which read unsigned are its magnitude).
Literal integer_literal(const llvm::APSInt& i) {
  Literal lit;
  lit.kind = Literal::Integer;
  lit.constant = true;
  lit.negative = i.isSigned() && i.isNegative();
  lit.magnitude = lit.negative ? i.abs() : static_cast<const llvm::APInt&>(i);
  return lit;
}

/// A default that is no literal but a constant expression (`= kLimit`, `= kBase * 2`,
/// `= Status::kDefault`, `= kGreeting` of a `constexpr const char*` or `std::string_view`): the value
/// clang evaluates it to, as the literal that would have written it. Other if it is not a constant.
Literal evaluated(const Expr* e, const ASTContext& ast) {
  Literal lit;
  if (e->isValueDependent() || e->isTypeDependent()) return lit;
  Expr::EvalResult result;
  if (!e->EvaluateAsRValue(result, ast, /*InConstantContext=*/true) || result.HasSideEffects) return lit;
  lit.constant = true;
  const APValue& v = result.Val;
  const QualType type = e->getType().getCanonicalType();
  if (v.isInt()) {
    const llvm::APSInt& i = v.getInt();
    if (type->isBooleanType()) {
      lit.kind = Literal::Boolean;
      lit.boolean = i.getBoolValue();
    } else if (const auto* et = type->getAs<EnumType>()) {
      for (const EnumConstantDecl* ec : et->getDecl()->enumerators())
        if (llvm::APSInt::isSameValue(ec->getInitVal(), i)) {
          lit.kind = Literal::Enumerator;
          lit.enumerator = ec;
          break;
        }
    } else if (type->isIntegerType()) {
      return integer_literal(i);
    }
  } else if (v.isFloat()) {
    lit.kind = Literal::Floating;
    lit.negative = v.getFloat().isNegative();
    lit.floating = llvm::abs(v.getFloat());
  } else if (auto text = constant_text(v)) {
    lit.kind = Literal::Text;
    lit.text = std::move(*text);
  } else if (v.isStruct() && v.getStructNumBases() == 0 && v.getStructNumFields() == 1 && v.getStructField(0).isInt()) {
    // A duration (std::chrono::seconds) holds its count alone.
    return integer_literal(v.getStructField(0).getInt());
  }
  return lit;
}

Literal read_literal(const Expr* expr, const ASTContext& ast) {
  Literal written = read_literal(expr);
  if (written.kind != Literal::Other) return written;
  return evaluated(peel(expr), ast);
}

Literal read_literal(const Expr* expr) {
  Literal lit;
  const Expr* e = peel(expr);
  if (const auto* uo = llvm::dyn_cast<UnaryOperator>(e)) {
    if (uo->getOpcode() == UO_Minus || uo->getOpcode() == UO_Plus) {
      Literal inner = read_literal(uo->getSubExpr());
      if (inner.kind == Literal::Integer || inner.kind == Literal::Floating) {
        if (uo->getOpcode() == UO_Minus) inner.negative = !inner.negative;
        return inner;
      }
    }
    return lit;
  }
  if (const auto* il = llvm::dyn_cast<IntegerLiteral>(e)) {
    lit.kind = Literal::Integer;
    lit.magnitude = il->getValue();
  } else if (const auto* fl = llvm::dyn_cast<FloatingLiteral>(e)) {
    lit.kind = Literal::Floating;
    lit.floating = fl->getValue();
  } else if (const auto* bl = llvm::dyn_cast<CXXBoolLiteralExpr>(e)) {
    lit.kind = Literal::Boolean;
    lit.boolean = bl->getValue();
  } else if (const auto* sl = llvm::dyn_cast<StringLiteral>(e)) {
    if (sl->isOrdinary() || sl->isUTF8()) {
      lit.kind = Literal::Text;
      lit.text = sl->getString().str();
    }
  } else if (const auto* dr = llvm::dyn_cast<DeclRefExpr>(e)) {
    if (const auto* ec = llvm::dyn_cast<EnumConstantDecl>(dr->getDecl())) {
      lit.kind = Literal::Enumerator;
      lit.enumerator = ec;
    } else if (qualified_name(dr->getDecl()) == "std::nullopt") {
      lit.kind = Literal::Null;
    }
  } else if (llvm::isa<CXXNullPtrLiteralExpr>(e)) {
    lit.kind = Literal::Null;
  } else if (const auto* ce = llvm::dyn_cast<CXXConstructExpr>(e)) {
    bool given = false;
    for (const Expr* a : ce->arguments()) given = given || !llvm::isa<CXXDefaultArgExpr>(a);
    if (!given) lit.kind = Literal::Empty;
  } else if (const auto* list = llvm::dyn_cast<InitListExpr>(e)) {
    if (list->getNumInits() == 0) lit.kind = Literal::Empty;
  } else if (llvm::isa<CXXScalarValueInitExpr>(e) || llvm::isa<ImplicitValueInitExpr>(e)) {
    lit.kind = Literal::Empty;
  }
  return lit;
}

/// A C++ string literal of `text` that reads back byte for byte (octal escapes cannot swallow a
/// following digit the way \x escapes swallow hex digits).
std::string cpp_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '?': out += "\\?"; break;  // `??=` would draw -Wtrigraphs
      default:
        if (c < 0x20 || c == 0x7f) {
          const char digits[] = {'\\', static_cast<char>('0' + ((c >> 6) & 7)), static_cast<char>('0' + ((c >> 3) & 7)),
                                 static_cast<char>('0' + (c & 7)), 0};
          out += digits;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string integer_cpp(bool negative, std::uint64_t magnitude) {
  // -9223372036854775808 is `-` applied to a literal too large for any signed type.
  if (negative && magnitude == (std::uint64_t{1} << 63)) return "(-9223372036854775807 - 1)";
  return (negative ? "-" : "") + std::to_string(magnitude);
}

/// The shortest decimal text that reads back as `value` in its own precision (`0.1f` -> "0.1").
template <class T>
std::string shortest(T value) {
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  return ec == std::errc() ? std::string(buffer, end) : std::string();
}

struct Converted {
  std::optional<model::Default> value;
  std::string problem;         ///< why the literal does not fit the type, when value is empty
  std::string recommendation;  ///< what to write instead; empty: a literal of the parameter's type
};

Converted refused(std::string problem, std::string recommendation = {}) {
  return {std::nullopt, std::move(problem), std::move(recommendation)};
}

/// `= {}` means "nothing": null for an optional, and an empty text, list or map, which the schema can
/// state as a default (a std::array's N values cannot).
bool empty_default(const model::Type& type) {
  switch (type.kind) {
    case model::TypeKind::Optional:
    case model::TypeKind::String:
    case model::TypeKind::StringView:
    case model::TypeKind::Sequence:
    case model::TypeKind::Set:
    case model::TypeKind::Map: return true;
    default: return false;
  }
}

/// Why a literal of the wrong kind (a string for an int, an enumerator of another enum) is refused.
Converted mismatch(const model::Type& type) {
  return refused("it does not fit the parameter's type '" + type.cpp + "'");
}

Converted accepted(nlohmann::json value, std::string cpp) {
  model::Default d;
  d.value = std::move(value);
  d.cpp = std::move(cpp);
  return {std::move(d), {}, {}};
}

/// `= {}` for a text, list or map: its empty value.
Converted empty_value(const model::Type& type) {
  nlohmann::json value = type.kind == model::TypeKind::Map ? nlohmann::json::object()
                         : type.kind == model::TypeKind::String || type.kind == model::TypeKind::StringView
                             ? nlohmann::json("")
                             : nlohmann::json::array();
  return accepted(std::move(value), "{}");
}

/// An integer literal for an integer or a duration count, checked against the type's range.
Converted integer_value(const Literal& lit, const model::Type& type) {
  if (lit.kind != Literal::Integer) return mismatch(type);
  if (lit.magnitude.getActiveBits() > 64) return refused("it does not fit 64 bits");
  const std::uint64_t m = lit.magnitude.getZExtValue();
  if (!lit.negative && m > static_cast<std::uint64_t>(INT64_MAX))
    return refused("signatures hold integers up to 9223372036854775807");
  if (type.kind == model::TypeKind::Integer) {
    const unsigned bits = type.bits;
    const std::uint64_t max = type.is_signed ? (std::uint64_t{1} << (bits - 1)) - 1
                                             : (bits >= 64 ? UINT64_MAX : (std::uint64_t{1} << bits) - 1);
    const std::uint64_t min_magnitude = type.is_signed ? std::uint64_t{1} << (bits - 1) : 0;
    if ((lit.negative && m > min_magnitude) || (!lit.negative && m > max))
      return refused("it is out of the range of '" + type.cpp + "'");
  } else if (lit.negative && m > (std::uint64_t{1} << 63)) {
    return refused("it does not fit 64 bits");
  }
  nlohmann::json value;
  if (lit.negative && m != 0)
    value = m == (std::uint64_t{1} << 63) ? INT64_MIN : -static_cast<std::int64_t>(m);
  else
    value = static_cast<std::int64_t>(m);
  const std::string number = integer_cpp(lit.negative && m != 0, m);
  return accepted(std::move(value), type.kind == model::TypeKind::Duration ? type.cpp + "(" + number + ")" : number);
}

/// An integer or floating literal for a floating type, written with the type's suffix.
Converted floating_value(const Literal& lit, const model::Type& type) {
  std::string digits;
  if (lit.kind == Literal::Integer) {
    if (lit.magnitude.getActiveBits() > 64) return mismatch(type);
    digits = std::to_string(lit.magnitude.getZExtValue());
  } else if (lit.kind == Literal::Floating) {
    // In the literal's own precision, so that `0.1f` is 0.1 and not 0.100000001.
    digits = &lit.floating.getSemantics() == &llvm::APFloat::IEEEsingle()
                 ? shortest(lit.floating.convertToFloat())
                 : shortest([&] {
                     llvm::APFloat wide = lit.floating;
                     bool loses = false;
                     wide.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &loses);
                     return wide.convertToDouble();
                   }());
  } else {
    return mismatch(type);
  }
  if (digits.find_first_of(".eEn") == std::string::npos) digits += ".0";
  const std::string signed_digits = (lit.negative ? "-" : "") + digits;
  const char* suffix = type.cpp == "float" ? "f" : type.cpp == "long double" ? "L" : "";
  return accepted(std::strtod(signed_digits.c_str(), nullptr), signed_digits + suffix);
}

/// Why `text` cannot be a JSON string, or nothing when it can: JSON text, and so a signature's default,
/// is UTF-8, and the offset says where it stops being that.
std::optional<std::string> not_utf8(const std::string& text) {
  const auto at = ptc::text::invalid_utf8_at(text);
  if (!at) return std::nullopt;
  return "it is not valid UTF-8 (byte offset " + std::to_string(*at) + ", 0x" + hex_byte(text[*at]) +
         ", starts an invalid sequence)";
}

Converted text_value(const Literal& lit, const model::Type& type) {
  if (lit.kind != Literal::Text) return mismatch(type);
  if (auto why = not_utf8(lit.text))
    return refused(std::move(*why),
                   "signatures and JSON hold UTF-8 text: write the character itself or a \\u escape (\"caf\\u00e9\")");
  const std::string wrapper = type.kind == model::TypeKind::String ? "std::string" : "std::string_view";
  // An embedded NUL would end a plain `const char*` conversion early; say the length.
  return accepted(lit.text,
                  wrapper + "(" + cpp_string(lit.text) +
                      (lit.text.find('\0') != std::string::npos ? ", " + std::to_string(lit.text.size()) : "") + ")");
}

/// An enumerator of the parameter's own enum, as its JSON name.
Converted enumerator_value(const Literal& lit, const model::Type& type) {
  if (lit.kind != Literal::Enumerator) return mismatch(type);
  const auto* ed = llvm::cast<EnumDecl>(lit.enumerator->getDeclContext());
  const NamedDecl* named = ed->getIdentifier() ? static_cast<const NamedDecl*>(ed) : ed->getTypedefNameForAnonDecl();
  if (!named || qualified_name(named) != type.name) return mismatch(type);
  return accepted(enumerator_json_name(lit.enumerator, nullptr), type.cpp + "::" + lit.enumerator->getNameAsString());
}

Converted convert(const Literal& lit, const model::Type& type) {
  if (lit.kind == Literal::Empty && type.kind != model::TypeKind::Optional && empty_default(type))
    return empty_value(type);
  switch (type.kind) {
    case model::TypeKind::Optional:
      if (lit.kind == Literal::Null || lit.kind == Literal::Empty)
        return accepted(nullptr, type.wrapper == "std::optional" ? "std::nullopt" : "nullptr");
      return convert(lit, type.args.at(0));
    case model::TypeKind::Integer:
    case model::TypeKind::Duration: return integer_value(lit, type);
    case model::TypeKind::Float: return floating_value(lit, type);
    case model::TypeKind::Bool:
      if (lit.kind != Literal::Boolean) return mismatch(type);
      return accepted(lit.boolean, lit.boolean ? "true" : "false");
    case model::TypeKind::String:
    case model::TypeKind::StringView: return text_value(lit, type);
    case model::TypeKind::Enum: return enumerator_value(lit, type);
    default: return mismatch(type);
  }
}

// --- annotations of parameters and fields -------------------------------------------------------

/// One annotation being read: where its errors are reported, and the annotations it adds to.
struct AnnotationSite {
  const Annotation& annotation;
  std::string on;  ///< "<macro> on <where>", the start of every message
  Reporter& reporter;
  ValueAnnotations& out;

  void fail(RuleId rule, const std::string& why, llvm::StringRef recommendation = {}) const {
    reporter.error(rule, annotation.loc, on + ": " + why, recommendation);
    out.ok = false;
  }
};

void read_doc(const AnnotationSite& site) {
  const auto args = site.annotation.args();
  auto text = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
  if (!text) return site.fail(RuleId::InvalidAnnotation, "expected one string literal");
  site.out.doc = collapse_whitespace(*text);
}

/// PTC_RANGE(lo, hi): once, on a number, with bounds of its kind in order; bounds wider than the type
/// holds are a warning, since the decoder refuses those values anyway.
void read_range(const AnnotationSite& site, const model::Type& type, bool& seen_range) {
  const auto args = site.annotation.args();
  std::optional<nlohmann::json> lo, hi;
  if (args.size() == 2) {
    lo = number_argument(args[0], site.reporter.ast());
    hi = number_argument(args[1], site.reporter.ast());
  }
  if (!lo || !hi) return site.fail(RuleId::InvalidAnnotation, "expected two numbers, PTC_RANGE(lo, hi)");
  if (seen_range) return site.fail(RuleId::InvalidConstraint, "the range is given twice", "keep one PTC_RANGE");
  seen_range = true;
  if (!is_number(type))
    return site.fail(RuleId::InvalidConstraint, "its type '" + type.cpp + "' is not a number",
                     is_text(type) ? "use PTC_PATTERN for strings" : "");
  if (is_integral(type) && (!lo->is_number_integer() || !hi->is_number_integer()))
    return site.fail(RuleId::InvalidConstraint, "an integer's bounds must be integers");
  if (lo->get<double>() > hi->get<double>())
    return site.fail(RuleId::InvalidConstraint,
                     "the lower bound " + lo->dump() + " is above the upper bound " + hi->dump());
  if (auto held = type_range(unwrapped(type));
      held && (number(*lo) < number(held->first) || number(*hi) > number(held->second))) {
    site.reporter.warning(RuleId::RangeExceedsType, site.annotation.loc,
                          site.on + ": [" + lo->dump() + ", " + hi->dump() + "] is wider than its type '" +
                              unwrapped(type).cpp + "', which holds " + held->first.dump() + " to " +
                              held->second.dump(),
                          "the decoder refuses what the type cannot hold; narrow the range to fit");
  }
  site.out.constraints.min = std::move(lo);
  site.out.constraints.max = std::move(hi);
}

void read_pattern(const AnnotationSite& site, const model::Type& type) {
  const auto args = site.annotation.args();
  auto pattern = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
  if (!pattern) return site.fail(RuleId::InvalidAnnotation, "expected one string literal");
  if (!is_text(type))
    return site.fail(RuleId::InvalidConstraint, "its type '" + type.cpp + "' is not a string",
                     is_number(type) ? "use PTC_RANGE for numbers" : "");
  if (auto why = model::no_throw::pattern_error(*pattern))
    return site.fail(RuleId::InvalidConstraint, "\"" + *pattern + "\" is not a valid RE2 pattern: " + *why);
  site.out.constraints.pattern = std::move(pattern);
}

void read_name(const AnnotationSite& site, bool is_field) {
  if (!is_field)
    return site.fail(RuleId::InvalidName, "a parameter's JSON name is its C++ name",
                     "rename the parameter, or name it in PTC_SIGNATURE");
  const auto args = site.annotation.args();
  auto name = args.size() == 1 ? string_argument(args[0]) : std::nullopt;
  if (!name || !ptc::text::is_identifier(*name))
    return site.fail(
        RuleId::InvalidName,
        "expected the field's JSON name as a string literal of letters, digits, '_' and '-' that starts with a "
        "letter or '_'");
  site.out.name = std::move(name);
}

}  // namespace

DefaultArgument default_argument(const ParmVarDecl* param, const model::Type& type, const std::string& where,
                                 Reporter& reporter) {
  DefaultArgument out;
  if (!param->hasDefaultArg() || param->hasUnparsedDefaultArg() || param->hasUninstantiatedDefaultArg()) return out;
  const Expr* expr = param->getDefaultArg();
  // A braced default (`= {}`) is a list-initializing construction whose range starts at the `=`.
  SourceRange range = expr->getSourceRange();
  if (const auto* ce = llvm::dyn_cast<CXXConstructExpr>(expr->IgnoreImplicit());
      ce && ce->isListInitialization() && ce->getParenOrBraceRange().isValid())
    range = ce->getParenOrBraceRange();
  const SourceLocation at = range.getBegin();
  const std::string written = reporter.text(range);
  Literal lit = read_literal(expr, reporter.ast());
  // `= {}` of a number, a boolean or an enum is its zero value.
  if (lit.kind == Literal::Empty && !empty_default(type)) lit = evaluated(peel(expr), reporter.ast());
  if (lit.kind == Literal::Other && lit.constant) {
    reporter.error(RuleId::InvalidDefault, at,
                   where + " has the default argument '" + printable(written) +
                       "', a constant of a kind no signature can state as a default",
                   "use a number, a string, a boolean, an enumerator, std::nullopt for an optional, or {} for an "
                   "empty string, list or map, or take std::optional<T> and apply the default inside the function");
    out.ok = false;
    return out;
  }
  if (lit.kind == Literal::Other) {
    reporter.error(
        RuleId::InvalidDefault, at,
        where + " has the default argument '" + printable(written) + "', which is not a constant expression",
        "use a constant of the parameter's type (a literal, a constexpr constant or expression, an enumerator, "
        "std::nullopt for an optional, or {} for an empty string, list or map), "
        "or take std::optional<T> and apply the default inside the function");
    out.ok = false;
    return out;
  }
  Converted c = convert(lit, type);
  if (!c.value) {
    reporter.error(RuleId::InvalidDefault, at,
                   where + " has the default argument '" + printable(written) + "': " + c.problem,
                   c.recommendation.empty() ? "use a literal of the parameter's type" : c.recommendation);
    out.ok = false;
    return out;
  }
  out.value = std::move(c.value);
  return out;
}

ValueAnnotations value_annotations(const DeclaratorDecl* decl, const model::Type& type, const std::string& where,
                                   bool is_field, Reporter& reporter) {
  ValueAnnotations out;
  bool seen_range = false;
  for (const Annotation& a : annotations(decl, reporter.ast().getSourceManager())) {
    const std::string macro = macro_name(a.key);
    const AnnotationSite site{a, macro + " on " + where, reporter, out};
    if (a.key == "ptc.doc") {
      read_doc(site);
    } else if (a.key == "ptc.range") {
      read_range(site, type, seen_range);
    } else if (a.key == "ptc.pattern") {
      read_pattern(site, type);
    } else if (a.key == "ptc.firewall") {
      if (!is_field)
        site.fail(RuleId::MisplacedAnnotation,
                  "only struct fields are firewalled; the model always sees the arguments it sends",
                  "firewall fields of the structs the tool returns");
      else
        out.firewall = true;
    } else if (a.key == "ptc.name") {
      read_name(site, is_field);
    } else if (a.key == "ptc.answer") {
      // In this header the visitor that finds the tools reports it, reached or not.
      if (!reporter.in_main_file(decl->getLocation()))
        site.fail(RuleId::InvalidAnswerType, "PTC_ANSWER applies to structs and enums");
    } else if (a.key == "ptc.tool" || a.key == "ptc.description" || a.key == "ptc.signature" ||
               a.key == "ptc.example" || a.key == "ptc.title" || a.key == "ptc.read_only" ||
               a.key == "ptc.destructive" || a.key == "ptc.additive" || a.key == "ptc.idempotent" ||
               a.key == "ptc.open_world") {
      site.fail(RuleId::MisplacedAnnotation, macro + " applies to functions");
    } else if (a.key == "ptc.resource" || a.key == "ptc.prompt" || a.key == "ptc.mime_type" ||
               a.key == "ptc.complete") {
      site.fail(RuleId::MisplacedAnnotation, macro + " applies to functions");
    } else {
      site.fail(RuleId::InvalidAnnotation, "unknown annotation \"" + a.key + "\"",
                "use the PTC_* macros of <ptc/annotate.hpp>");
    }
  }
  return out;
}

}  // namespace ptcgen::extract::detail
