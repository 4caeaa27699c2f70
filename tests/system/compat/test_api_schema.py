"""Everything commit 0586113, the last before accounts per holder, published in its OpenAPI
schema is still published, so API clients keep working; added paths, operations,
parameters, properties and components are expected.

Both trees generate the schema the same way (their ``spectacular`` command, as JSON); every
``description`` and ``summary`` text is left out of the comparison, so wording may improve.
Still there, as they were: every path and its operations, each operation's parameters, its
request body's and answers' types; every component schema, each of its properties with its
type, and each of its enum's values.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.compat

PROSE = frozenset({"description", "summary"})
OPERATIONS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# What a schema's type is made of; the rest (prose, examples, bounds, read-only) may change.
TYPE_KEYS = ("type", "format", "$ref", "nullable", "items", "allOf", "oneOf", "anyOf")
SHOWN = 60


def without_prose(node):
    """``node`` with every ``description``/``summary`` text removed, at any depth. A schema
    property that happens to be called "description" is an object, not a text: it stays."""
    if isinstance(node, dict):
        return {
            key: without_prose(value)
            for key, value in node.items()
            if not (key in PROSE and isinstance(value, str))
        }
    if isinstance(node, list):
        return [without_prose(item) for item in node]
    return node


def test_without_prose_keeps_a_property_named_description():
    node = {
        "description": "Prose",
        "properties": {"description": {"type": "string", "description": "More prose"}},
        "tags": [{"name": "x", "summary": "Prose"}],
    }
    assert without_prose(node) == {
        "properties": {"description": {"type": "string"}},
        "tags": [{"name": "x"}],
    }


def type_of(node):
    """What ``node`` (a schema, or a property's) says about its type, at any depth."""
    if isinstance(node, list):
        return [type_of(item) for item in node]
    if not isinstance(node, dict):
        return node
    kept = {key: type_of(node[key]) for key in TYPE_KEYS if key in node}
    extra = node.get("additionalProperties")
    if extra is not None:
        kept["additionalProperties"] = type_of(extra)
    return kept


def _contents(part: dict) -> dict[str, object]:
    """A request body's or an answer's type by media type."""
    return {
        media: type_of(given.get("schema"))
        for media, given in (part or {}).get("content", {}).items()
    }


def _accepts_as_before(was, is_now, then_schemas: dict, now_schemas: dict) -> bool:
    """Whether a request body of component ``is_now`` takes every body component ``was``
    took: each property it had, of the same type, and nothing newly required. An input may
    grow an optional field under a new name (a withdrawal's ``impact``) and break no client."""
    if not (isinstance(was, dict) and isinstance(is_now, dict)):
        return False
    if set(was) != {"$ref"} or set(is_now) != {"$ref"}:
        return False
    old = then_schemas.get(was["$ref"].rsplit("/", 1)[-1])
    new = now_schemas.get(is_now["$ref"].rsplit("/", 1)[-1])
    if old is None or new is None:
        return False
    properties = new.get("properties", {})
    kept = all(
        field in properties and type_of(properties[field]) == type_of(schema)
        for field, schema in old.get("properties", {}).items()
    )
    return kept and set(new.get("required", [])) <= set(old.get("required", []))


def operation_losses(
    where: str, then: dict, now: dict, schemas: tuple[dict, dict] = ({}, {})
) -> list[str]:
    """What ``then`` (one operation as published before) published that ``now`` lacks;
    ``schemas``: the components before and now, to compare request bodies by what they take."""
    lost = []
    kept = {(item.get("name"), item.get("in")) for item in now.get("parameters", [])}
    for item in then.get("parameters", []):
        if (item.get("name"), item.get("in")) not in kept:
            lost.append(f"{where}: parameter {item.get('name')} ({item.get('in')}) gone")
    for media, was in _contents(then.get("requestBody")).items():
        is_now = _contents(now.get("requestBody")).get(media)
        if is_now != was and not _accepts_as_before(was, is_now, *schemas):
            lost.append(f"{where}: request body {media} was {was}, now {is_now}")
    answers = now.get("responses", {})
    for code, answer in then.get("responses", {}).items():
        if code not in answers:
            lost.append(f"{where}: answer {code} gone")
            continue
        for media, was in _contents(answer).items():
            is_now = _contents(answers[code]).get(media)
            if is_now != was:
                lost.append(f"{where}: answer {code} {media} was {was}, now {is_now}")
    return lost


def component_losses(name: str, then: dict, now: dict | None) -> list[str]:
    """What component schema ``name`` published before that it no longer does."""
    if now is None:
        return [f"component {name} gone"]
    lost = []
    if "enum" in then:
        left = [value for value in then["enum"] if value not in now.get("enum", [])]
        if left:
            lost.append(f"component {name}: enum values {left} gone")
    if type_of({k: v for k, v in then.items() if k != "properties"}) != type_of(
        {k: v for k, v in now.items() if k != "properties"}
    ):
        lost.append(f"component {name} was {type_of(then)}, now {type_of(now)}")
    properties = now.get("properties", {})
    for field, was in then.get("properties", {}).items():
        if field not in properties:
            lost.append(f"component {name}: property {field} gone")
        elif type_of(properties[field]) != type_of(was):
            lost.append(
                f"component {name}: property {field} was {type_of(was)}, "
                f"now {type_of(properties[field])}"
            )
    return lost


def losses(then: dict, now: dict) -> list[str]:
    """Everything the schema ``then`` published that ``now`` no longer publishes as it was."""
    then, now = without_prose(then), without_prose(now)
    lost = []
    components = (
        then.get("components", {}).get("schemas", {}),
        now.get("components", {}).get("schemas", {}),
    )
    paths = now.get("paths", {})
    for path, item in then.get("paths", {}).items():
        if path not in paths:
            lost.append(f"path {path} gone")
            continue
        for method in OPERATIONS:
            if method not in item:
                continue
            where = f"{method.upper()} {path}"
            if method not in paths[path]:
                lost.append(f"{where} gone")
            else:
                lost.extend(operation_losses(where, item[method], paths[path][method], components))
    schemas = now.get("components", {}).get("schemas", {})
    for name, schema in then.get("components", {}).get("schemas", {}).items():
        lost.extend(component_losses(name, schema, schemas.get(name)))
    return lost


WALLET = {"$ref": "#/components/schemas/Wallet"}
BEFORE = {
    "paths": {
        "/api/wallet/": {
            "get": {
                "parameters": [{"name": "page", "in": "query", "schema": {"type": "integer"}}],
                "responses": {"200": {"content": {"application/json": {"schema": WALLET}}}},
            }
        }
    },
    "components": {
        "schemas": {
            "Wallet": {
                "type": "object",
                "properties": {"balance": {"type": "integer"}, "currency": {"type": "string"}},
            },
            "KindEnum": {"enum": ["red", "black"], "type": "string"},
        }
    },
}


def test_losses_allow_additions_and_prose():
    now = {
        "paths": {
            **BEFORE["paths"],
            "/api/accounts/": {"get": {"responses": {}}},
        },
        "components": {
            "schemas": {
                "Wallet": {
                    "type": "object",
                    "description": "New prose",
                    "properties": {
                        "balance": {"type": "integer", "description": "Cents"},
                        "currency": {"type": "string"},
                        "accounts": {"type": "array"},
                    },
                },
                "KindEnum": {"enum": ["red", "black", "green"], "type": "string"},
                "Account": {"type": "object"},
            }
        },
    }
    assert losses(BEFORE, now) == []


def test_losses_name_what_is_gone_or_retyped():
    now = {
        "paths": {
            "/api/wallet/": {
                "get": {
                    "responses": {
                        "200": {
                            "content": {
                                "application/json": {"schema": {"type": "array", "items": WALLET}}
                            }
                        }
                    }
                }
            }
        },
        "components": {
            "schemas": {
                "Wallet": {"type": "object", "properties": {"balance": {"type": "string"}}},
                "KindEnum": {"enum": ["red"], "type": "string"},
            }
        },
    }
    assert losses(BEFORE, now) == [
        "GET /api/wallet/: parameter page (query) gone",
        "GET /api/wallet/: answer 200 application/json was "
        "{'$ref': '#/components/schemas/Wallet'}, now "
        "{'type': 'array', 'items': {'$ref': '#/components/schemas/Wallet'}}",
        "component Wallet: property balance was {'type': 'integer'}, now {'type': 'string'}",
        "component Wallet: property currency gone",
        "component KindEnum: enum values ['black'] gone",
    ]


def test_everything_published_before_accounts_per_holder_is_still_published(
    published_before, published_now
):
    lost = losses(published_before.schema, published_now.schema)
    if lost:
        shown = "\n".join(f"  {line}" for line in lost[:SHOWN])
        more = f"\n  … {len(lost) - SHOWN} more" if len(lost) > SHOWN else ""
        pytest.fail(
            "the published API schema lost what the previous commit published "
            f"(prose left out):\n{shown}{more}"
        )


def _with_body(component: str) -> dict:
    body = {
        "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{component}"}}}
    }
    return {"paths": {"/api/x/": {"post": {"requestBody": body, "responses": {}}}}}


REASON = {"type": "object", "properties": {"reason": {"type": "string"}}}


def test_a_request_body_may_move_to_an_input_that_takes_all_it_took_and_more():
    then = {**_with_body("ReasonInput"), "components": {"schemas": {"ReasonInput": REASON}}}
    grown = {
        "type": "object",
        "properties": {"reason": {"type": "string"}, "impact": {"type": "string"}},
    }
    now = {
        **_with_body("WithdrawInput"),
        "components": {"schemas": {"ReasonInput": REASON, "WithdrawInput": grown}},
    }
    assert losses(then, now) == []


def test_a_request_body_may_not_move_to_an_input_that_requires_more_or_drops_a_field():
    then = {**_with_body("ReasonInput"), "components": {"schemas": {"ReasonInput": REASON}}}
    for changed in (
        {**REASON, "properties": {"impact": {"type": "string"}}},
        {**REASON, "properties": {**REASON["properties"]}, "required": ["reason"]},
    ):
        now = {
            **_with_body("Other"),
            "components": {"schemas": {"ReasonInput": REASON, "Other": changed}},
        }
        lost = losses(then, now)
        assert len(lost) == 1 and lost[0].startswith("POST /api/x/: request body"), lost
