#pragma once
// Model -> ptc::Schema and ptc::Signature (docs/codecs.md, "Types"). The generator links the runtime, so the
// signatures built here are the very objects the runtime renders, validates and dispatches with.

#include <string>
#include <vector>

#include <ptc/error.hpp>
#include <ptc/schema.hpp>
#include <ptc/signature.hpp>

#include "model/model.hpp"

namespace ptcgen::model {

/// The schema of a value of C++ type `type`. Throws ptc::Exception when the model does not hold
/// together (a struct or enum missing from `header`, a constraint on a type it cannot refine).
ptc::Schema schema_of(const Type& type, const HeaderModel& header);

/// Whether a field or parameter of this type may be absent or null (std::optional and the smart pointers).
bool is_optional(const Type& type);

/// A field's or parameter's value: schema_of its type (of the wrapped type when optional), refined by
/// PTC_RANGE / PTC_PATTERN. Not wrapped in [:maybe ...]: map entries and signatures do that themselves.
/// Throws like schema_of.
ptc::Schema value_schema(const Type& type, const Constraints& constraints, const HeaderModel& header);

/// The signature the C++ declaration alone gives (PTC_SIGNATURE set aside). Errors name the tool and
/// the parameter ("tool 'search': parameter 'limit': PTC_PATTERN refines strings, not :int").
ptc::Result<ptc::Signature> derived_signature(const Tool& tool, const HeaderModel& header);

/// The tool's signature: parameters in C++ order (without the injected context), optional when
/// optional-typed or defaulted, with their docs and literal defaults, and the result of the tool's
/// ReturnStyle. With PTC_SIGNATURE, the explicit signature's parameter names and refinements win (see
/// check_explicit_signature); an incompatible one is an error.
ptc::Result<ptc::Signature> signature_of(const Tool& tool, const HeaderModel& header);

/// PTC_SIGNATURE against the C++ declaration, one message per problem (empty when compatible or when
/// the tool has no explicit signature, or when the declaration itself gives no signature: signature_of
/// reports that). Compatible means: as many parameters, and position by position
/// (and for the result) the same type once refinements, docs and defaults are set aside. New refinements
/// may only refine a parameter's own type, not types inside it (those of the C++ struct fields may be
/// repeated): generated decoders check them on the parameter's value.
std::vector<std::string> check_explicit_signature(const Tool& tool, const HeaderModel& header);

}  // namespace ptcgen::model
