#pragma once
// A small hand-written model, with the traits ptc-gen would emit for it, shared by the codec unit
// tests: an enum and a struct with an optional field.

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <ptc/codec/codec.hpp>

namespace shop {

enum class Status { open, closed };

struct Item {
  std::int64_t id = 0;
  std::string title;
  std::optional<std::string> assignee;
  friend bool operator==(const Item&, const Item&) = default;
};

}  // namespace shop

namespace ptc::codec {
template <>
struct EnumTraits<::shop::Status> {
  static constexpr std::array<EnumEntry<::shop::Status>, 2> entries{
      {{"open", ::shop::Status::open}, {"closed", ::shop::Status::closed}}};
};
template <>
struct StructTraits<::shop::Item> {
  static constexpr std::array<FieldInfo, 3> fields{
      {{"id", false, false}, {"title", false, false}, {"assignee", true, false}}};
  static bool decode_field(Decoder& d, std::size_t index, Value& v, ::shop::Item& out) {
    switch (index) {
      case 0: return Codec<std::int64_t>::decode(d, v, out.id);
      case 1: return Codec<std::string>::decode(d, v, out.title);
      case 2: return Codec<std::optional<std::string>>::decode(d, v, out.assignee);
    }
    return true;
  }
  static void fill_default(std::size_t index, ::shop::Item& out) {
    (void)index;
    (void)out;
  }
  template <class W>
  static void encode_fields(W& w, const ::shop::Item& value) {
    w.key("id");
    Codec<std::int64_t>::encode(w, value.id);
    w.key("title");
    Codec<std::string>::encode(w, value.title);
    w.key("assignee");
    Codec<std::optional<std::string>>::encode(w, value.assignee);
  }
};
}  // namespace ptc::codec
