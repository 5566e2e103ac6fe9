#pragma once
// The generated codec parts (the codec contract of ptc/codec/codec.hpp): the
// tools' Args structs, EnumTraits / StructTraits specializations for the header's enums, structs
// and those Args, and SchemaOf (ptc/codec/schema_of.hpp) of the enums and structs answer types reach.

#include <string>
#include <string_view>

#include "emit/plan.hpp"
#include "model/model.hpp"

namespace ptcgen::emit {

/// The name generated code outside the detail namespace gives a tool's Args struct.
std::string args_type(std::string_view stem, const ToolPlan& tool);

/// One struct per tool, for namespace ptc_gen::<stem>::detail; blank lines between them.
std::string args_structs(const Plan& plan);

/// For namespace ptc::codec in `<stem>.ptc.hpp`: EnumTraits and SchemaOf of every enum the answer
/// types reach (model::reached_from_answers), then StructTraits and SchemaOf of every such struct, each
/// type in an include guard of its own. Public, so that code outside the generated source can decode
/// an answer and show the model its schema. Empty without answer types.
std::string answer_traits(const model::HeaderModel& header, const Plan& plan);

/// For namespace ptc::codec in `<stem>.ptc.cpp`: EnumTraits of every other enum, then StructTraits of
/// every other struct (in the model's order: dependencies first, since each decode_field names its
/// fields' codecs), then of every tool's Args. No SchemaOf: no code outside this source could see it,
/// and the source does not need it.
std::string codec_traits(const model::HeaderModel& header, const Plan& plan);

}  // namespace ptcgen::emit
