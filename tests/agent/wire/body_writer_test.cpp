// BodyWriter (src/wire/body_writer.cpp): a request body written straight as text must be the compact
// JSON of the same members in the same order, as nlohmann would print the tree.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "wire/body_writer.hpp"

namespace {

using ptc::OrderedJson;
using ptc::agent::detail::wire::BodyWriter;

TEST(BodyWriter, WritesMembersInOrderWithTheirSeparators) {
  BodyWriter w;
  w.begin_object();
  w.member("z", "last \"first\"\n");
  w.member("a", true);
  w.key("n");
  w.begin_array();
  w.json(OrderedJson(-3));
  w.unsigned_integer(18446744073709551615u);
  w.number(0.1);
  w.null();
  w.begin_object();
  w.end_object();
  w.begin_array();
  w.end_array();
  w.end_array();
  w.key("tree");
  w.json(OrderedJson{{"y", 1}, {"x", {2, 3}}});
  w.key("sorted");
  w.json(nlohmann::json{{"y", 1}, {"x", "é"}});
  w.key("kept");
  w.raw(R"([{"name":"a"}])");
  w.member("key \"quoted\"", std::string("v"));
  w.end_object();

  OrderedJson expected;
  expected["z"] = "last \"first\"\n";
  expected["a"] = true;
  expected["n"] =
      OrderedJson::array({-3, 18446744073709551615u, 0.1, nullptr, OrderedJson::object(), OrderedJson::array()});
  expected["tree"] = OrderedJson{{"y", 1}, {"x", {2, 3}}};
  expected["sorted"] = OrderedJson{{"x", "é"}, {"y", 1}};
  expected["kept"] = OrderedJson::array({OrderedJson{{"name", "a"}}});
  expected["key \"quoted\""] = "v";
  EXPECT_EQ(w.take(), expected.dump());
}

TEST(BodyWriter, InvalidUtf8IsReplacedAsNlohmannReplacesIt) {
  BodyWriter w;
  w.begin_array();
  w.string("ok\xff");
  w.end_array();
  EXPECT_EQ(w.take(), OrderedJson::array({"ok\xff"}).dump(-1, ' ', false, OrderedJson::error_handler_t::replace));
}

}  // namespace
