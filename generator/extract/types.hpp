#pragma once
// C++ types -> model::Type (docs/codecs.md, "Types"). Internal to extract/.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <clang/AST/Type.h>

#include "extract/clang_support.hpp"
#include "model/model.hpp"

namespace ptcgen::extract::detail {

/// The parameter, result or field a type belongs to, for messages and their location.
struct Subject {
  std::string what;           ///< "parameter 'filter' of tool 'search'", "result of tool 'search'"
  std::string field_path;     ///< below it: "meta.owner" (empty for the parameter or result itself)
  clang::SourceLocation loc;  ///< the declaration the message points at
  clang::QualType declared;   ///< its declared type: "has type 'X', which holds 'Y'"
  /// `what` names the type itself ("answer type 'shop::Verdict'"), which messages then do not repeat
  /// ("has type 'shop::Verdict'") unless they are about a field of it.
  bool is_type = false;
};

/// Maps the types of one header's tools and answer types, recording the structs and enums they reach in
/// the header's model. Structs are shared records, so each is expanded once, at the shallowest depth
/// any tool or answer type reaches it (found by reach() over all of them before the first map()).
/// Every struct reached is recorded, also beyond the depth limit, where the type says DepthLimit but
/// generated code still needs the struct's fields.
class TypeMapper {
 public:
  TypeMapper(Reporter& reporter, model::HeaderModel& header, unsigned max_depth);

  /// First pass: notes how shallow each struct under `type` is reached, counting `type` itself as
  /// depth 1. Reports nothing.
  void reach(clang::QualType type, clang::SourceLocation loc);

  /// Second pass. `parameter`: the type of a parameter itself, where std::string_view and
  /// std::span<const T> are allowed. Problems are reported; nullopt when there were any.
  std::optional<model::Type> map(clang::QualType type, const Subject& subject, bool parameter);

  /// Whether the (possibly sugared) type is `ptc::ToolContext` / `ptc::ToolResult<...>` / std::expected.
  static bool is_record(clang::QualType type, llvm::StringRef qualified);

 private:
  struct Frame {
    const Subject* subject;
    unsigned depth;       ///< struct nesting level of the type being mapped (a parameter's struct: 1)
    unsigned level;       ///< type nesting level, every type counted (a parameter's own type: 1)
    bool parameter;       ///< the parameter's own type (not inside another type)
    bool in_variant;      ///< an alternative of a std::variant (std::monostate allowed)
    bool expected_value;  ///< T of std::expected<T, E> (void allowed)
  };
  enum class Status { Building, Done, Failed };
  struct StructState {
    unsigned min_depth = 0;  ///< from reach(); 0 when never reached
    std::optional<Status> status;
    unsigned height = 1;  ///< Done: the levels its values take, itself included (a struct of ints: 2)
  };

  std::optional<model::Type> map_type(clang::QualType type, const Frame& f);
  std::optional<model::Type> map_builtin(clang::QualType type, const Frame& f);
  std::optional<model::Type> map_enum(clang::QualType type, const Frame& f);
  std::optional<model::Type> map_record(clang::QualType type, const Frame& f);

  /// A class as map_record() sees it: its name and template arguments (defined in types.cpp).
  struct Record;
  using Handler = std::optional<model::Type> (TypeMapper::*)(const Record& r);
  /// The member that maps the classes called `name` ("std::vector"); nullptr for those ptc refuses
  /// and for structs.
  static Handler handler(std::string_view name);
  // One per kind of class (docs/codecs.md, "Types"); each reports its own problems.
  std::optional<model::Type> map_string(const Record& r);
  std::optional<model::Type> map_sequence(const Record& r);
  std::optional<model::Type> map_span(const Record& r);
  std::optional<model::Type> map_array(const Record& r);
  std::optional<model::Type> map_set(const Record& r);
  std::optional<model::Type> map_map(const Record& r);
  std::optional<model::Type> map_nullable(const Record& r);
  std::optional<model::Type> map_variant(const Record& r);
  std::optional<model::Type> map_monostate(const Record& r);
  std::optional<model::Type> map_tuple(const Record& r);
  std::optional<model::Type> map_time_point(const Record& r);
  std::optional<model::Type> map_date(const Record& r);
  std::optional<model::Type> map_duration(const Record& r);
  std::optional<model::Type> map_expected(const Record& r);
  std::optional<model::Type> map_json(const Record& r);
  /// std::vector<T>, std::set<T>, ...: one element type and default allocator, comparator, hasher.
  std::optional<model::Type> map_container(const Record& r, model::TypeKind kind);
  /// Reports extra template arguments that are not the defaults.
  std::nullopt_t custom_arguments(const Record& r, llvm::StringRef plain);

  std::optional<model::Type> map_struct(clang::QualType type, const clang::CXXRecordDecl* rd, const Frame& f);
  bool build_struct(const clang::CXXRecordDecl* rd, const std::string& name, const std::string& cpp, const Frame& f);
  void reach_type(clang::QualType type, clang::SourceLocation loc, unsigned depth);
  /// The levels a mapped type's values take (kMaxTypeDepth counts them), structs by their height.
  unsigned height(const model::Type& type) const;
  /// Reports the PTC_* macros on a struct (and its bases) or enum declaration, where none has an
  /// effect; each declaration once.
  void reject_annotations(const clang::Decl* d, llvm::StringRef what);
  /// Reports a type nested beyond kMaxTypeDepth levels.
  void too_deep(const Frame& f, clang::QualType offending);

  /// "<what>[: field '<path>'] has type 'T'[, which holds 'U']: <reason>", with a recommendation note.
  void fail(const Frame& f, clang::QualType offending, llvm::StringRef reason, llvm::StringRef recommendation,
            RuleId rule = RuleId::UnsupportedType);
  void warn(RuleId rule, const Frame& f, clang::QualType offending, llvm::StringRef reason,
            llvm::StringRef recommendation);
  std::string describe(const Frame& f, clang::QualType offending, llvm::StringRef reason) const;

  Reporter& reporter_;
  model::HeaderModel& header_;
  unsigned max_depth_;
  std::map<const clang::CXXRecordDecl*, StructState> structs_;
  std::map<std::string, unsigned> heights_;  ///< of the structs built, by model name
  std::set<const clang::EnumDecl*> enums_;
  std::set<const clang::Decl*> rejected_;  ///< declarations reject_annotations() has looked at
};

/// Why a class cannot be mapped as a struct, or nullopt if it is an aggregate with public fields.
/// `depth` counts the base classes above it; a chain of them longer than kMaxTypeDepth is refused.
std::optional<std::string> not_a_plain_struct(const clang::CXXRecordDecl* rd, unsigned depth = 1);

}  // namespace ptcgen::extract::detail
