#!/usr/bin/env python3
"""JSON Schema conformance for `ptc signature json-schema` and `ptc signature validate`.

Part A (well-formedness): for every signature below and every profile, `ptc signature json-schema`
either prints schemas that pass `Draft202012Validator.check_schema` (plus a few structural rules of the
profile), or -- for the (signature, profile) pairs listed in REFUSED -- exits 1 with an error naming the
path of the construct the profile cannot express (docs/json-schema.md: never a silent drop).

Part B (agreement): for every signature, instances are generated from the `portable` input schema
(valid ones built from the schema, invalid ones by mutation), deterministically (random.Random(1234)),
and `ptc signature validate SIG --input JSON --mode strict` must agree (exit 0/1) with
`Draft202012Validator(schema).is_valid(instance)`.

Deliberate divergence that is never generated: JSON Schema counts an integral float (1.0, 1e2) as an
"integer", while ptc rejects 42.0 for :int (docs/validation.md: "42.0 -> int (precision)"). So no
generated number where an integer may be expected is an integral float: floats always have a fraction.
Integers stay within int64 (ptc's :int range; the JSON Schema has no bound for it).

Standard library + jsonschema only (works with Debian 12's python3-jsonschema 4.10 and newer).
Usage: json_schema_conformance.py --ptc PATH [--jobs N] [-v]
"""

import argparse
import concurrent.futures
import copy
import json
import random
import subprocess
import sys

import jsonschema
from jsonschema import Draft202012Validator

PROFILES = ["portable", "openai", "anthropic", "gemini", "mcp"]
DIALECT = "https://json-schema.org/draft/2020-12/schema"

# (id, signature text, is_malli). Shorthand accepts inline Malli forms such as [:set T].
SIGNATURES = [
    ("string", "(name :string) -> :string", False),
    ("int", "(n :int) -> :int", False),
    ("float", "(x :float) -> :float", False),
    ("bool", "(flag :bool) -> :bool", False),
    ("keyword", "(k :keyword) -> :keyword", False),
    ("primitives", "(a :string, b :int, c :float, d :bool) -> {ok :bool}", False),
    ("list", "(tags [:string]) -> [:int]", False),
    ("list_of_lists", "(matrix [[:int]]) -> :int", False),
    ("nested_map", "(user {id :int, name :string, address {street :string, zip :string}}) -> {id :int}", False),
    ("optional_param", "(email :string?) -> :string?", False),
    ("optional_field", "(user {id :int, nick :string?}) -> :nil", False),
    ("any_map", "(meta :map) -> :map", False),
    ("enum_words", "(status :enum[pending active done]) -> :enum[ok failed]", False),
    ("enum_strings", '(level :enum["low" "high"]) -> :string', False),
    ("union", "(v :string|:int) -> :string|:int|:bool", False),
    ("int_gt", "(n :int[>0]) -> :int", False),
    ("int_bounds", "(n :int[1..100], m :int[>=0], k :int[<10], j :int[<=5]) -> :int", False),
    ("float_range", "(p :float[0.0..1.0]) -> :float", False),
    ("float_gt", "(t :float[>0.5]) -> :float", False),
    ("re_anchored", '(x [:and :string [:re "^[a-z]+$"]]) -> :string', False),
    ("re_unanchored", '(x [:and :string [:re "b"]]) -> :string', False),
    ("re_digits", '(pin [:and :string [:re "^\\\\d{4}$"]]) -> :bool', False),
    ("re_code", '(code [:and :string [:re "^[A-Z]{3}-[0-9]{2}$"]]) -> :bool', False),
    ("set", "(tags [:set :string]) -> [:set :int]", False),
    ("set_float", "(xs [:set :float]) -> :int", False),
    ("tuple", "(pt [:tuple :int :string]) -> [:tuple :float :float]", False),
    ("map_of", "(scores [:map-of :string :int]) -> :int", False),
    ("map_of_keyword_vec", "(m [:map-of :keyword [:vector :int]]) -> :int", False),
    ("map_of_enum_keys", '(m [:map-of [:enum "a" "b"] :int]) -> :int', False),
    ("map_of_re_keys", '(m [:map-of [:and :string [:re "^x"]] :int]) -> :int', False),
    ("nil", "(v :nil) -> :nil", False),
    ("maybe", "(x [:maybe :int]) -> [:maybe :string]", False),
    ("or_nil", "(x [:or :int :nil]) -> :int", False),
    ("maybe_enum", "(e :enum[a b]?) -> :int", False),
    ("list_of_maps", "(items [{id :int, qty :int[>=1], note :string?}]) -> {total :float}", False),
    ("any", "(x :any) -> :any", False),
    ("no_input", "() -> :string", False),
    ("bare_type", "{count :int}", False),
    ("optional_kinds", "(x :int?, y [:int]?, z {a :int}?) -> :int", False),
    ("search", "(q :string, limit :int[1..100]?) -> [{id :int, title :string}]", False),
    ("sequential", "(s [:sequential :int]) -> :int", False),
    ("vector_of_sets", "(v [:vector [:set :int]]) -> :int", False),
    ("and_two_bounds", "(r [:and :int [:> 0] [:< 10]]) -> :int", False),
    ("and_allof", "(r [:and :int [:>= 0] [:>= 5]]) -> :int", False),
    ("and_two_res", '(r [:and :string [:re "^a"] [:re "z$"]]) -> :int', False),
    ("deep", "(a {b {c {d [{e :int?}]}}}) -> :int", False),
    ("firewalled", "(_secret :string, name :string) -> :string", False),
    ("nil_maybe", "(x :nil?) -> :int", False),
    # Malli
    ("malli_doc_default",
     '[:=> [:catn [:q {:doc "The query"} :string] [:limit {:default 10} [:and :int [:>= 1] [:<= 100]]]] '
     '[:vector [:map [:id :int] [:title {:doc "Title"} :string]]]]', True),
    ("malli_nested_defaults",
     '[:=> [:catn [:opts [:map [:verbose {:optional true :default false} :boolean] '
     '[:mode {:default "fast"} [:enum "fast" "slow"]]]]] :nil]', True),
    ("malli_cat", "[:=> [:cat :string [:maybe :int]] :int]", True),
    ("malli_int_enum", "[:=> [:catn [:x [:enum 1 2 3]]] :int]", True),
    ("malli_mixed_enum", '[:=> [:catn [:x [:enum "a" 1 true]]] :int]', True),
    ("malli_tuple", "[:=> [:catn [:p [:tuple :int [:maybe :string] [:vector :double]]]] :int]", True),
    ("malli_union_maps", "[:=> [:catn [:x [:or [:map [:a :int]] [:map [:b :string]]]]] :int]", True),
    ("malli_set_of_maps", "[:=> [:catn [:x [:set [:map [:a :int]]]]] :int]", True),
    ("malli_vector_default", "[:=> [:catn [:d {:default [1 2]} [:vector :int]]] :int]", True),
    ("malli_optional_not_maybe", "[:=> [:catn [:a [:map [:x {:optional true} :int]]]] :int]", True),
    ("malli_default_param", '[:=> [:catn [:n {:default 5 :doc "How many"} :int]] :int]', True),
    ("malli_property_name", '[:=> [:catn [:x [:map ["a b" :int]]]] :int]', True),
    ("malli_map_of_any", "[:=> [:catn [:m [:map-of :string :any]]] [:map-of :string :int]]", True),
    ("malli_bare", "[:map [:id :int] [:tags [:set :keyword]]]", True),
]

# (signature id, profile) -> substrings the CLI's error (stderr) must contain; exit status must be 1.
# Everything not listed must render. Output schemas of openai/anthropic/gemini are rendered with the
# portable rules (only MCP consumes result schemas), so only input constructs are refused there.
REFUSED = {}


def refuse(sig_id, profile, *needles):
    REFUSED[(sig_id, profile)] = needles


for _p in ("openai", "gemini"):
    refuse("any_map", _p, f"{_p} cannot express", "at meta")
    refuse("set", _p, f"{_p} cannot express", "[:set T]", "at tags")
    refuse("set_float", _p, f"{_p} cannot express", "at xs")
    refuse("tuple", _p, f"{_p} cannot express", "[:tuple", "at pt")
    refuse("map_of", _p, f"{_p} cannot express", "at scores")
    refuse("map_of_keyword_vec", _p, f"{_p} cannot express", "at m")
    refuse("map_of_enum_keys", _p, f"{_p} cannot express", "at m")
    refuse("map_of_re_keys", _p, f"{_p} cannot express", "at m")
    refuse("vector_of_sets", _p, f"{_p} cannot express", "at v[]")
    refuse("any", _p, f"{_p} cannot express", ":any", "at x")
    refuse("and_allof", _p, f"{_p} cannot express", "allOf", "at r")
    refuse("and_two_res", _p, f"{_p} cannot express", "allOf", "at r")
    refuse("malli_tuple", _p, f"{_p} cannot express", "at p")
    refuse("malli_set_of_maps", _p, f"{_p} cannot express", "at x")
    refuse("malli_map_of_any", _p, f"{_p} cannot express", "at m")
for _p in ("openai", "anthropic", "gemini"):
    refuse("malli_property_name", _p, f"{_p}: property name at x.a b")
refuse("nil", "gemini", "gemini cannot express", ":nil", "at v")
refuse("or_nil", "gemini", "gemini cannot express", ":nil", "at x")
refuse("nil_maybe", "gemini", "gemini cannot express", ":nil", "at x")
refuse("float_gt", "gemini", "gemini cannot express", "exclusive bound", "at t")
refuse("malli_int_enum", "gemini", "gemini cannot express", "non-string :enum", "at x")
refuse("malli_mixed_enum", "gemini", "gemini cannot express", "non-string :enum", "at x")

# Strings known to match / not match each [:re] pattern used above (JSON Schema `pattern` is a search,
# not a full match; RE2 and ECMA-262 agree on these simple patterns).
PATTERN_SAMPLES = {
    "^[a-z]+$": (["abc", "z", "hello"], ["Abc", "", "ab1", "a b"]),
    "b": (["b", "abc", "xxbxx"], ["", "xyz", "B"]),
    "^\\d{4}$": (["1234", "0000"], ["123", "12345", "abcd", "12a4"]),
    "^[A-Z]{3}-[0-9]{2}$": (["ABC-12", "XYZ-99"], ["AB-12", "abc-12", "ABC-123", "ABC12"]),
    "^x": (["x", "xyz", "x1"], ["ax", "y", "", "X"]),
    "^a": (["a", "abz", "az"], ["ba", "", "z"]),
    "z$": (["z", "az", "abz"], ["za", "", "a"]),
}

ALPHABET = "abcxyzABCXYZ019 _-.\"\\/\n\té日🙂"
WRONG_VALUES = ["", "42", "true", "null", "hello", 7, -3, 2.5, -0.25, True, False, None, [], [1, "a"], {}, {"k": 1}]


class Fail(Exception):
    pass


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def sig_args(text, malli):
    return [text] + (["--malli"] if malli else [])


# ---------------------------------------------------------------------------------------------------
# Part A: schemas are valid 2020-12 and fit their profile.

def walk_schemas(schema, fn, path="#"):
    """Calls fn(subschema, path) on every subschema (dict) in schema."""
    if not isinstance(schema, dict):
        return
    fn(schema, path)
    for key in ("properties",):
        for name, sub in schema.get(key, {}).items():
            walk_schemas(sub, fn, f"{path}/{key}/{name}")
    for key in ("items", "additionalProperties", "propertyNames"):
        if isinstance(schema.get(key), dict):
            walk_schemas(schema[key], fn, f"{path}/{key}")
    for key in ("anyOf", "allOf", "oneOf", "prefixItems"):
        for i, sub in enumerate(schema.get(key, [])):
            walk_schemas(sub, fn, f"{path}/{key}/{i}")


def profile_problems(profile, which, schema):
    """Structural rules of each profile beyond the metaschema; returns a list of messages."""
    problems = []
    if profile == "portable":
        if schema.get("$schema") != DIALECT:
            problems.append("portable root lacks $schema")
    elif "$schema" in schema:
        problems.append(f"{profile} root has $schema")
    if which == "input" or profile == "mcp":
        if schema.get("type") != "object":
            problems.append(f"{which} root is not type object")

    def check(s, path):
        t = s.get("type")
        if isinstance(t, list) and len(set(t)) != len(t):
            problems.append(f"{path}: duplicate entries in type {t}")
        # The MCP Inspector's portability check (rule type-union) warns on type arrays.
        if profile in ("portable", "anthropic", "mcp") and isinstance(t, list):
            problems.append(f"{path}: {profile} type must be one string (T? is anyOf [T, null]), got {t}")
        if s.get("type") == "object" and "properties" in s and profile != "gemini" and "additionalProperties" not in s:
            problems.append(f"{path}: object without additionalProperties")
        if profile == "openai" and which == "input":
            if s.get("type") == "object":
                if s.get("additionalProperties") is not False:
                    problems.append(f"{path}: openai object not closed")
                if sorted(s.get("required", [])) != sorted(s.get("properties", {}).keys()) or "required" not in s:
                    problems.append(f"{path}: openai object must require every property")
            for bad in ("default", "allOf", "prefixItems", "uniqueItems", "propertyNames"):
                if bad in s:
                    problems.append(f"{path}: openai schema uses {bad}")
        if profile == "gemini" and which == "input":
            if isinstance(t, list):
                problems.append(f"{path}: gemini type must be a string, got {t}")
            for bad in ("additionalProperties", "exclusiveMinimum", "exclusiveMaximum", "prefixItems",
                        "uniqueItems", "allOf", "propertyNames", "$schema"):
                if bad in s:
                    problems.append(f"{path}: gemini schema uses {bad}")
            if t == "null":
                problems.append(f"{path}: gemini has no null type")
            if "enum" in s and t != "string":
                problems.append(f"{path}: gemini enum without type string")
    walk_schemas(schema, check)
    return problems


def part_a(ptc, verbose):
    failures = []
    rendered = 0
    refused = 0
    portable = {}
    for sig_id, text, malli in SIGNATURES:
        for profile in PROFILES:
            rc, out, err = run([ptc, "signature", "json-schema"] + sig_args(text, malli) + ["--profile", profile])
            key = (sig_id, profile)
            if key in REFUSED:
                needles = REFUSED[key]
                if rc != 1 or any(n not in err for n in needles):
                    failures.append(f"[A] {sig_id} / {profile}: expected refusal (exit 1, stderr containing "
                                    f"{list(needles)}), got exit {rc}, stderr {err.strip()!r}")
                else:
                    refused += 1
                continue
            if rc != 0:
                failures.append(f"[A] {sig_id} / {profile}: expected schemas, got exit {rc}: {err.strip()}")
                continue
            try:
                doc = json.loads(out)
            except ValueError as e:
                failures.append(f"[A] {sig_id} / {profile}: output is not JSON ({e})")
                continue
            if set(doc) != {"input", "output"}:
                failures.append(f"[A] {sig_id} / {profile}: top-level keys {sorted(doc)}")
                continue
            for which in ("input", "output"):
                try:
                    Draft202012Validator.check_schema(doc[which])
                except jsonschema.exceptions.SchemaError as e:
                    failures.append(f"[A] {sig_id} / {profile} / {which}: invalid 2020-12 schema: {e.message} "
                                    f"at {list(e.absolute_path)}\n    schema: {json.dumps(doc[which])}")
                for prob in profile_problems(profile, which, doc[which]):
                    failures.append(f"[A] {sig_id} / {profile} / {which}: {prob}\n    schema: {json.dumps(doc[which])}")
            rendered += 1
            if profile == "portable":
                portable[sig_id] = doc["input"]
            if verbose:
                print(f"ok  {sig_id} / {profile}")
    return failures, rendered, refused, portable


# ---------------------------------------------------------------------------------------------------
# Part B: instance generation from a (portable) JSON Schema.

def types_of(s):
    t = s.get("type")
    if t is None:
        return []
    return t if isinstance(t, list) else [t]


def rand_string(rng):
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 8)))


def rand_float(rng, lo, hi):
    """A float with a fractional part in [lo, hi] (never integral: see the module docstring)."""
    for _ in range(100):
        x = round(rng.uniform(lo, hi), 3)
        if lo <= x <= hi and x != int(x):
            return x
    return (lo + hi) / 2 if (lo + hi) / 2 != int((lo + hi) / 2) else lo + 0.001


def num_bounds(s, integral):
    lo, hi = (-1000, 1000)
    if "minimum" in s:
        lo = s["minimum"]
    if "exclusiveMinimum" in s:
        lo = s["exclusiveMinimum"] + (1 if integral else 0.001)
    if "maximum" in s:
        hi = s["maximum"]
    if "exclusiveMaximum" in s:
        hi = s["exclusiveMaximum"] - (1 if integral else 0.001)
    if hi < lo:
        hi = lo + 10
    return lo, hi


def rng_big_ok(s):
    return not any(k in s for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"))


def gen_any(rng, depth=0):
    choices = ["s", "i", "f", "b", "n"] + (["a", "o"] if depth < 2 else [])
    c = rng.choice(choices)
    if c == "s":
        return rand_string(rng)
    if c == "i":
        return rng.randint(-100, 100)
    if c == "f":
        return rand_float(rng, -100, 100)
    if c == "b":
        return rng.random() < 0.5
    if c == "n":
        return None
    if c == "a":
        return [gen_any(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {rand_string(rng) or "k": gen_any(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def gen_key(rng, names_schema):
    if names_schema:
        if "enum" in names_schema:
            return rng.choice(names_schema["enum"])
        if "pattern" in names_schema:
            return rng.choice(PATTERN_SAMPLES[names_schema["pattern"]][0])
    return rng.choice(["a", "b", "key", "x_1", "日本", "with space", ""]) + rng.choice(["", "2", "z"])


def gen_valid(s, rng, depth=0):
    """A value built to satisfy s (best effort: the verdict always comes from jsonschema)."""
    if s is True or s == {} or (isinstance(s, dict) and not any(
            k in s for k in ("type", "enum", "anyOf", "allOf", "properties"))):
        return gen_any(rng, depth)
    if "enum" in s:
        return copy.deepcopy(rng.choice(s["enum"]))
    if "anyOf" in s:
        return gen_valid(rng.choice(s["anyOf"]), rng, depth)
    if "allOf" in s:
        v = Draft202012Validator(s)
        cand = None
        for _ in range(50):
            cand = gen_valid(s["allOf"][0], rng, depth)
            if v.is_valid(cand):
                return cand
        return cand
    ts = types_of(s)
    t = rng.choice(ts)
    if "null" in ts and len(set(ts)) > 1:
        t = "null" if rng.random() < 0.2 else rng.choice([x for x in ts if x != "null"])
    if t == "null":
        return None
    if t == "boolean":
        return rng.random() < 0.5
    if t == "integer":
        lo, hi = num_bounds(s, True)
        if rng_big_ok(s) and rng.random() < 0.1:
            return rng.choice([2 ** 53 + 1, -(2 ** 62), 2 ** 63 - 1, -(2 ** 63)])
        if not rng_big_ok(s) and rng.random() < 0.3:
            return int(rng.choice([lo, hi]))  # exactly on an inclusive bound
        return rng.randint(int(lo), int(hi))
    if t == "number":
        lo, hi = num_bounds(s, False)
        if not rng_big_ok(s) and rng.random() < 0.3:
            b = rng.choice([lo, hi])
            return int(b) if b == int(b) else b  # on the bound; an integral one as a JSON integer
        if rng.random() < 0.25 and int(hi) >= int(lo) and int(lo) >= lo:
            return rng.randint(int(lo), int(hi))  # a JSON integer is a fine :float
        return rand_float(rng, lo, hi)
    if t == "string":
        if "pattern" in s:
            return rng.choice(PATTERN_SAMPLES[s["pattern"]][0])
        return rand_string(rng)
    if t == "array":
        if "prefixItems" in s:
            return [gen_valid(x, rng, depth + 1) for x in s["prefixItems"]]
        n = rng.randint(s.get("minItems", 0), min(s.get("maxItems", 3), 3))
        out = []
        seen = set()
        for _ in range(n * 5):
            if len(out) >= n:
                break
            x = gen_valid(s.get("items", {}), rng, depth + 1)
            k = json.dumps(x, sort_keys=True)
            if s.get("uniqueItems") and k in seen:
                continue
            seen.add(k)
            out.append(x)
        return out
    if t == "object":
        out = {}
        props = s.get("properties", {})
        required = set(s.get("required", []))
        for name, sub in props.items():
            if name in required or rng.random() < 0.6:
                out[name] = gen_valid(sub, rng, depth + 1)
        extra = s.get("additionalProperties", True)
        if isinstance(extra, dict) or (extra is True and not props):
            for _ in range(rng.randint(0, 3)):
                out[gen_key(rng, s.get("propertyNames"))] = gen_valid(extra if isinstance(extra, dict) else {}, rng,
                                                                       depth + 1)
        return out
    raise Fail(f"cannot generate for {s}")


def sites(value, s, path=()):
    """(path, subschema) for every node of value whose schema is known, root first."""
    out = [(path, s)]
    if not isinstance(s, dict):
        return out
    if "anyOf" in s:
        for alt in s["anyOf"]:
            if Draft202012Validator(alt).is_valid(value):
                return out + sites(value, alt, path)[1:]
        return out
    if "allOf" in s:
        return out + sites(value, s["allOf"][0], path)[1:]
    if isinstance(value, dict):
        props = s.get("properties", {})
        extra = s.get("additionalProperties")
        for k, v in value.items():
            sub = props.get(k, extra if isinstance(extra, dict) else None)
            if sub is not None:
                out += sites(v, sub, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            prefix = s.get("prefixItems", [])
            sub = prefix[i] if i < len(prefix) else s.get("items")
            if isinstance(sub, dict):
                out += sites(v, sub, path + (i,))
    return out


def get_at(value, path):
    for p in path:
        value = value[p]
    return value


def set_at(root, path, new):
    if not path:
        return new
    get_at(root, path[:-1])[path[-1]] = new
    return root


def effective(s):
    """The schema whose keywords describe the node (first allOf part, non-null anyOf branch)."""
    if "allOf" in s:
        merged = dict(s["allOf"][0])
        for part in s["allOf"][1:]:
            merged.update(part)
        return merged
    return s


MUTATIONS = ["wrong_type", "missing_required", "extra_field", "out_of_range", "bad_enum", "duplicate_item",
             "tuple_length", "null", "bad_pattern", "bad_key"]


def mutate(valid, schema, rng):
    """An instance derived from `valid` by one mutation (usually, not necessarily, invalid)."""
    inst = copy.deepcopy(valid)
    nodes = sites(inst, schema)
    applicable = {}
    for kind in MUTATIONS:
        cands = []
        for path, s in nodes:
            e = effective(s) if isinstance(s, dict) else {}
            v = get_at(inst, path)
            if kind == "wrong_type":
                cands.append((path, lambda v, e: rng.choice(WRONG_VALUES)))
            elif kind == "null" and v is not None:
                cands.append((path, lambda v, e: None))
            elif kind == "missing_required" and isinstance(v, dict) and any(r in v for r in e.get("required", [])):
                def drop(v, e):
                    v = dict(v)
                    del v[rng.choice([r for r in e["required"] if r in v])]
                    return v
                cands.append((path, drop))
            elif kind == "extra_field" and isinstance(v, dict) and e.get("type") == "object":
                def add(v, e):
                    v = dict(v)
                    v[rng.choice(["extra", "unexpected_1", "zz"])] = rng.choice([1, "x", None, True])
                    return v
                cands.append((path, add))
            elif kind == "out_of_range" and isinstance(v, (int, float)) and not isinstance(v, bool):
                integral = "integer" in types_of(e)
                for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
                    if k in e:
                        b = e[k]
                        step = 1 if integral else rng.choice([0.5, 0.001, 3.25])
                        if k.startswith("exclusive"):
                            val = b  # the bound itself is out
                        elif k == "minimum":
                            val = b - step
                        else:
                            val = b + step
                        if integral:
                            val = int(val)
                        elif isinstance(val, float) and val == int(val):
                            val = int(val)  # integral value for :float: send a JSON integer, not 1.0
                        cands.append((path, lambda v, e, val=val: val))
            elif kind == "bad_enum" and "enum" in e:
                cands.append((path, lambda v, e: rng.choice(["unknown", "PENDING", 99, "", False])))
            elif kind == "duplicate_item" and isinstance(v, list) and v and e.get("uniqueItems"):
                cands.append((path, lambda v, e: v + [copy.deepcopy(rng.choice(v))]))
            elif kind == "tuple_length" and isinstance(v, list) and "prefixItems" in e:
                cands.append((path, lambda v, e: v[:-1] if rng.random() < 0.5 else v + [v[0]]))
            elif kind == "bad_pattern" and isinstance(v, str) and "pattern" in e:
                cands.append((path, lambda v, e: rng.choice(PATTERN_SAMPLES[e["pattern"]][1])))
            elif kind == "bad_key" and isinstance(v, dict) and "propertyNames" in e and isinstance(
                    e.get("additionalProperties"), dict):
                names = e["propertyNames"]
                bad = "zz" if "enum" in names else rng.choice(PATTERN_SAMPLES[names["pattern"]][1]) \
                    if "pattern" in names else "k"

                def badkey(v, e, bad=bad):
                    v = dict(v)
                    v[bad] = gen_valid(e["additionalProperties"], rng)
                    return v
                cands.append((path, badkey))
        if cands:
            applicable[kind] = cands
    if not applicable:
        return "none", inst
    # Mutations that target one construct are rarer than the generic ones: weight them up.
    kinds = sorted(applicable)
    weights = [1 if k in ("wrong_type", "null", "extra_field") else 4 for k in kinds]
    kind = rng.choices(kinds, weights)[0]
    path, fn = rng.choice(applicable[kind])
    return kind, set_at(inst, path, fn(get_at(inst, path), effective(get_at_schema(nodes, path))))


def get_at_schema(nodes, path):
    for p, s in nodes:
        if p == path:
            return s if isinstance(s, dict) else {}
    return {}


def no_integral_float(x):
    if isinstance(x, float):
        return x != int(x)
    if isinstance(x, list):
        return all(no_integral_float(v) for v in x)
    if isinstance(x, dict):
        return all(no_integral_float(v) for v in x.values())
    return True


def build_cases(portable, per_sig_valid, per_sig_invalid):
    rng = random.Random(1234)
    cases = []
    for sig_id, text, malli in SIGNATURES:
        schema = portable.get(sig_id)
        if schema is None:
            continue
        seen = set()
        valids = []
        for _ in range(per_sig_valid * 3):
            if len(valids) >= per_sig_valid:
                break
            inst = gen_valid(schema, rng)
            k = json.dumps(inst, sort_keys=True)
            if k in seen:
                continue
            seen.add(k)
            valids.append(inst)
            cases.append((sig_id, text, malli, schema, "valid", inst))
        if not valids:
            valids = [{}]
        made = 0
        for _ in range(per_sig_invalid * 3):
            if made >= per_sig_invalid:
                break
            kind, inst = mutate(rng.choice(valids), schema, rng)
            k = json.dumps(inst, sort_keys=True)
            if k in seen or not no_integral_float(inst):
                continue
            seen.add(k)
            made += 1
            cases.append((sig_id, text, malli, schema, kind, inst))
        # The root must be an object: a few non-object tool arguments.
        for inst in ([], None, "x"):
            cases.append((sig_id, text, malli, schema, "root", inst))
    return cases


def part_b(ptc, portable, jobs, verbose):
    cases = build_cases(portable, per_sig_valid=12, per_sig_invalid=30)

    def check(case):
        sig_id, text, malli, schema, kind, inst = case
        js = Draft202012Validator(schema).is_valid(inst)
        rc, out, err = run([ptc, "signature", "validate"] + sig_args(text, malli) +
                           ["--input", json.dumps(inst, ensure_ascii=False), "--mode", "strict"])
        if rc not in (0, 1):
            return case, js, None, f"exit {rc}: {err.strip()}"
        return case, js, rc == 0, out.strip()

    failures = []
    stats = {"valid": 0, "invalid": 0}
    kinds = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for case, js, ptc_ok, detail in pool.map(check, cases):
            sig_id, text, malli, schema, kind, inst = case
            stats["valid" if js else "invalid"] += 1
            kinds[kind] = kinds.get(kind, 0) + 1
            if ptc_ok != js:
                failures.append(
                    f"[B] {sig_id}: {text}\n    instance: {json.dumps(inst, ensure_ascii=False)}  ({kind})\n"
                    f"    jsonschema: {'valid' if js else 'invalid'}, ptc: "
                    f"{'valid' if ptc_ok else 'invalid' if ptc_ok is False else 'error'}\n    ptc said: {detail}")
            elif verbose:
                print(f"ok  {sig_id} {kind} {json.dumps(inst, ensure_ascii=False)} -> {js}")
    return failures, len(cases), stats, kinds


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ptc", required=True, help="path to the ptc binary")
    ap.add_argument("--jobs", type=int, default=4, help="parallel ptc processes (results are order-independent)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    assert len(SIGNATURES) >= 40 and len({s[0] for s in SIGNATURES}) == len(SIGNATURES)
    unknown = {k[0] for k in REFUSED} - {s[0] for s in SIGNATURES}
    assert not unknown, unknown

    a_fail, rendered, refused, portable = part_a(args.ptc, args.verbose)
    b_fail, total, stats, kinds = part_b(args.ptc, portable, args.jobs, args.verbose)
    for f in a_fail + b_fail:
        print(f)
    print(f"json_schema_conformance: {len(SIGNATURES)} signatures x {len(PROFILES)} profiles: {rendered} rendered, "
          f"{refused} refused as expected, {len(a_fail)} schema failures; {total} instances "
          f"({stats['valid']} valid, {stats['invalid']} invalid per jsonschema; "
          + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items()))
          + f"), {len(b_fail)} disagreements")
    return 1 if a_fail or b_fail else 0


if __name__ == "__main__":
    sys.exit(main())
