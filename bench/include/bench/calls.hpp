#pragma once
// The `search_orders` call every benchmark of the argument and dispatch paths uses, shared by the
// timed benchmarks (ptc_bench), the instruction counter (bench_instructions) and the Python peer
// (bench/python/pydantic_peer.py holds the same two texts), so that all of them measure the same bytes.

#include <string>

namespace bench {

/// 298 bytes, keys in declaration order.
inline const std::string kCall =
    R"({"customer_email":"ada@example.com","status":"paid","tags":["priority","gift"],"min_total":25.5,)"
    R"("limit":20,"include_cancelled":false,"ship_to":{"street":"12 Harbour Road","city":"Bergen","country":"NO"},)"
    R"("items":[{"sku":"A-100","quantity":2,"unit_price":9.99},{"sku":"B-220","quantity":1,"unit_price":24.5}]})";

/// The same call with every object's keys in reverse order.
inline const std::string kPermutedCall =
    R"({"items":[{"unit_price":9.99,"quantity":2,"sku":"A-100"},{"unit_price":24.5,"quantity":1,"sku":"B-220"}],)"
    R"("ship_to":{"country":"NO","city":"Bergen","street":"12 Harbour Road"},"include_cancelled":false,"limit":20,)"
    R"("min_total":25.5,"tags":["priority","gift"],"status":"paid","customer_email":"ada@example.com"})";

/// The same call with one value to coerce (`"limit":"20"`): the decoder's optimistic pass stops there
/// and the reporting pass decodes the whole text again.
inline const std::string kCoercedCall =
    R"({"customer_email":"ada@example.com","status":"paid","tags":["priority","gift"],"min_total":25.5,)"
    R"("limit":"20","include_cancelled":false,"ship_to":{"street":"12 Harbour Road","city":"Bergen","country":"NO"},)"
    R"("items":[{"sku":"A-100","quantity":2,"unit_price":9.99},{"sku":"B-220","quantity":1,"unit_price":24.5}]})";

/// The provider's call id the replies echo.
inline const std::string kCallId = "call_7Qx2";

}  // namespace bench
