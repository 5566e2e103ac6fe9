#!/usr/bin/env python3
"""The Python peer of ptc_bench: the same `search_orders` call with pydantic (v2, pydantic-core).

- validate_json: pydantic-core parses and validates the 298-byte arguments (in declaration order and
  with every object's keys reversed, the same bytes as bench/include/bench/calls.hpp).
- dispatch_openai: what a Python tool runtime does per call: validate_json, call the function, dump
  its result, build the OpenAI chat tool message and serialize it, as ptc_bench's BM_Dispatch does.

Prints one JSON object: {"pydantic": version, "results": [{"name", "median_ns", "min_ns", "max_ns"}]},
per-call times over REPETITIONS runs of ITERATIONS calls. Exits 3, saying so, without pydantic.
"""
import json
import sys
import time
from enum import Enum
from typing import List, Optional

try:
    import pydantic
    from pydantic import BaseModel, TypeAdapter
except ImportError:
    print("pydantic_peer: pydantic 2 is not installed for " + sys.executable + "; the pydantic rows are skipped",
          file=sys.stderr)
    sys.exit(3)

CALL = (b'{"customer_email":"ada@example.com","status":"paid","tags":["priority","gift"],"min_total":25.5,'
        b'"limit":20,"include_cancelled":false,"ship_to":{"street":"12 Harbour Road","city":"Bergen","country":"NO"},'
        b'"items":[{"sku":"A-100","quantity":2,"unit_price":9.99},{"sku":"B-220","quantity":1,"unit_price":24.5}]}')
PERMUTED_CALL = (b'{"items":[{"unit_price":9.99,"quantity":2,"sku":"A-100"},{"unit_price":24.5,"quantity":1,"sku":"B-220"}],'
                 b'"ship_to":{"country":"NO","city":"Bergen","street":"12 Harbour Road"},"include_cancelled":false,"limit":20,'
                 b'"min_total":25.5,"tags":["priority","gift"],"status":"paid","customer_email":"ada@example.com"}')
CALL_ID = "call_7Qx2"


class OrderStatus(str, Enum):
    pending = "pending"
    paid = "paid"
    shipped = "shipped"
    cancelled = "cancelled"


class Address(BaseModel):
    street: str
    city: str
    country: str


class LineItem(BaseModel):
    sku: str
    quantity: int
    unit_price: float


class Order(BaseModel):
    id: int
    customer_email: str
    status: OrderStatus
    items: List[LineItem]
    ship_to: Address
    note: Optional[str] = None
    total: float


class SearchArgs(BaseModel):
    customer_email: str
    status: OrderStatus
    tags: List[str]
    min_total: Optional[float] = None
    limit: int
    include_cancelled: bool
    ship_to: Address
    items: List[LineItem]


def search_orders(customer_email, status, tags, min_total, limit, include_cancelled, ship_to, items):
    """The same body as bench/orders_impl.cpp: no orders."""
    return []


RESULT = TypeAdapter(List[Order])
VALIDATOR = SearchArgs.__pydantic_validator__


def validate(text):
    return VALIDATOR.validate_json(text)


def dispatch_openai(text):
    args = VALIDATOR.validate_json(text)
    result = search_orders(args.customer_email, args.status, args.tags, args.min_total, args.limit,
                           args.include_cancelled, args.ship_to, args.items)
    content = RESULT.dump_json(result).decode()
    return json.dumps({"role": "tool", "tool_call_id": CALL_ID, "content": content})


def measure(fn, arg, iterations, repetitions):
    fn(arg)  # the first call builds caches
    per_call = []
    for _ in range(repetitions):
        start = time.perf_counter_ns()
        for _ in range(iterations):
            fn(arg)
        per_call.append((time.perf_counter_ns() - start) / iterations)
    per_call.sort()
    return {"median_ns": per_call[len(per_call) // 2], "min_ns": per_call[0], "max_ns": per_call[-1]}


def main():
    iterations = int(sys.argv[1]) if len(sys.argv) > 1 else 50000
    repetitions = 5
    # Both texts must validate, and the reply must be what the C++ side produces.
    assert validate(CALL) == validate(PERMUTED_CALL)
    assert json.loads(dispatch_openai(CALL))["content"] == "[]"
    results = []
    for name, fn, arg in (("validate_json", validate, CALL), ("validate_json_permuted", validate, PERMUTED_CALL),
                          ("dispatch_openai", dispatch_openai, CALL)):
        results.append({"name": name, **measure(fn, arg, iterations, repetitions)})
    print(json.dumps({"pydantic": pydantic.VERSION, "results": results}))


if __name__ == "__main__":
    main()
