#include <ptc/signature.hpp>

#include "schema_node.hpp"

namespace ptc {

Signature::Signature() : input_(Schema::map({})), output_(Schema::any()) {}

Signature::Signature(std::vector<MapEntry> params, Schema result)
    : params_(normalize_entries(std::move(params))), input_(Schema::map(params_)), output_(std::move(result)) {}

bool operator==(const Signature& a, const Signature& b) { return a.params_ == b.params_ && a.output_ == b.output_; }

}  // namespace ptc
