#pragma once
// Malli text (read as EDN) -> ptc::Schema / ptc::Signature.

#include <optional>
#include <string_view>

#include <ptc/error.hpp>
#include <ptc/schema.hpp>
#include <ptc/signature.hpp>

#include "edn_reader.hpp"

namespace ptc::malli {

/// `source` is the whole text the value was read from (for error positions).
Result<Schema> schema_from_edn(const edn::Value& v, std::string_view source);
Result<Signature> signature_from_edn(const edn::Value& v, std::string_view source);

/// The type a keyword names in both syntaxes (`:string`, `:int`, `:float`/`:double`, `:bool`/`:boolean`,
/// `:keyword`, `:any`, `:nil`, `:map`), without its colon; nullopt for any other name.
std::optional<Schema> primitive_type(std::string_view name);

/// Checks a field default against the field's schema; the message explains a mismatch.
std::optional<std::string> default_mismatch(const MapEntry& entry);

}  // namespace ptc::malli
