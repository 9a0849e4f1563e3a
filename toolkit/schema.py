"""Turn pydantic validation errors into located Problems with expected/found and a hint."""

from __future__ import annotations

import difflib
import re
import types
import typing
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from toolkit.fields import SLUG_PATTERN
from toolkit.plain_check import plain_instance
from toolkit.problems import Problem
from toolkit.yamlsource import LocatedDict, LocatedList, Pos, SourceFile

M = TypeVar("M", bound=BaseModel)

_YAML11_WORDS = {"yes", "no", "on", "off", "y", "n"}
_TYPE_NAMES = {
    "int_type": "a whole number", "int_parsing": "a whole number", "int_from_float": "a whole number",
    "string_type": "text", "bool_type": "true or false", "float_type": "a number",
    "dict_type": "a mapping (key: value lines)", "model_type": "a mapping (key: value lines)",
    "model_attributes_type": "a mapping (key: value lines)",
    "list_type": "a list", "tuple_type": "a list", "enum": "one of the allowed words",
    "finite_number": "a finite number (not NaN or infinity)",
}
_S004_TYPES = {
    "literal_error", "enum", "string_pattern_mismatch", "greater_than", "greater_than_equal", "less_than",
    "less_than_equal", "too_short", "too_long", "string_too_short", "string_too_long",
}
_TAG_ERRORS = {"union_tag_invalid", "union_tag_not_found"}


def describe(value: Any) -> str:
    """How a YAML value looks to the person who wrote it."""
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"text '{shown}'"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return type(value).__name__


def validate_model(model: type[M], data: Any, source: SourceFile, where: tuple = ()) -> tuple[M | None, list[Problem]]:
    """Validate `data` (located YAML) as `model`; `where` is the path of `data` inside its file. Well-formed
    data is accepted by its plain check; pydantic validates (and explains) the rest."""
    value = plain_instance(model, data)
    if value is not None:
        return value, []
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, [_problem(model, error, data, source, where) for error in exc.errors()]


def _walk(data: Any, loc: tuple) -> tuple[Any, Any, Any]:
    """Follow `loc` through located data. Returns (parent container, last key, value) as far as it goes;
    path parts that are not in the data (union tags) are skipped."""
    parent, key, value = None, None, data
    for part in loc:
        in_dict = isinstance(value, dict) and part in value
        in_list = isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value)
        if in_dict or in_list:
            parent, key, value = value, part, value[part]
        elif isinstance(value, (dict, list)):
            continue
        else:
            break
    return parent, key, value


def _value_pos(parent: Any, key: Any, value: Any) -> Pos | None:
    if isinstance(value, (LocatedDict, LocatedList)):
        return value.pos
    if isinstance(parent, LocatedDict):
        return parent.value_pos.get(key)
    if isinstance(parent, LocatedList):
        return parent.item_pos[key]
    return None


def _field_name(loc: tuple) -> str:
    names = [str(part) for part in loc if isinstance(part, str)]
    return names[-1] if names else "document"


def _path_text(where: tuple, loc: tuple) -> str:
    parts = []
    for part in (*where, *loc):
        if isinstance(part, int):
            parts.append(f"[{part}]")
        else:
            parts.append(("." if parts else "") + str(part))
    return "".join(parts) or "the top level"


def _problem(model: type[BaseModel], error: ErrorDetails, data: Any, source: SourceFile, where: tuple) -> Problem:
    loc = tuple(error["loc"])
    kind = error["type"]
    path = _path_text(where, loc)
    if kind == "extra_forbidden":
        parent, key, _ = _walk(data, loc)
        pos = parent.key_pos.get(key) if isinstance(parent, LocatedDict) else None
        allowed = allowed_keys(model, loc[:-1])
        close = difflib.get_close_matches(str(loc[-1]), allowed, n=1, cutoff=0.6)
        hint = f"did you mean '{close[0]}'?" if close else "remove it or check its spelling"
        return source.problem("S001", pos, f"unknown key '{loc[-1]}' in {_path_text(where, loc[:-1])}",
                              hint=hint, expected=", ".join(allowed), found=str(loc[-1]))
    if kind == "missing":
        parent_loc = loc[:-1]
        _, _, container = _walk(data, parent_loc)
        pos = container.pos if isinstance(container, (LocatedDict, LocatedList)) else None
        return source.problem("S002", pos, f"missing required key '{loc[-1]}' in {_path_text(where, parent_loc)}",
                              hint=f"add `{loc[-1]}:` here")
    if kind in _TAG_ERRORS:
        return _tag_problem(model, error, data, source, where)
    parent, key, value = _walk(data, loc)
    pos = _value_pos(parent, key, value)
    found = describe(value)
    if kind == "line_break":
        return source.problem("Y012", pos, f"{path}: a name or other one-line text holds a line break",
                              hint="write it on one line; only longer text (effect, text) may have paragraphs",
                              expected="one line", found=found)
    if kind in _S004_TYPES:
        expected = _expected_text(error)
        if kind in ("too_short", "too_long") and isinstance(value, list | dict):
            found = f"{len(value)} items"  # not "a list is not allowed" when a list is what belongs here
        hint = ""
        if kind == "string_pattern_mismatch" and (error.get("ctx") or {}).get("pattern") == SLUG_PATTERN:
            expected = "a lowercase id (letters, digits and single dashes)"
            hint = f"for example `{_suggest_slug(value)}`" if isinstance(value, str) else ""
        elif kind in ("literal_error", "enum") and isinstance(value, str):
            options = [opt.strip("'\" ") for opt in expected.replace(" or ", ",").split(",")]
            close = difflib.get_close_matches(value.lower(), options, n=1, cutoff=0.5)
            hint = f"did you mean '{close[0]}'?" if close else ""
        return source.problem("S004", pos, f"{path}: {found} is not allowed; expected {expected}",
                              hint=hint, expected=expected, found=found)
    expected = _TYPE_NAMES.get(kind, error.get("msg", "another value"))
    if not loc or (kind in ("dict_type", "model_type", "model_attributes_type") and not where and len(loc) <= 1):
        return source.problem("S005", pos, f"expected {expected} for {path}, found {found}",
                              hint="see the data format in the README", expected=expected, found=found)
    hint = ""
    if isinstance(value, str) and value.lower() in _YAML11_WORDS:
        hint = f"duelkit reads '{value}' as text, never as true/false; write {expected}"
    elif isinstance(value, str) and expected == "a whole number":
        hint = "remove the quotes or units around the number"
    elif isinstance(value, dict) and expected == "a list":
        hint = "start each item with '- '"
    return source.problem("S003", pos, f"expected {expected} for '{_field_name(loc)}', found {found}",
                          hint=hint, expected=expected, found=found)


def _tag_problem(model: type[BaseModel], error: ErrorDetails, data: Any, source: SourceFile, where: tuple) -> Problem:
    """A tagged choice (a module's `effect: {kind: ...}`) with an unknown or missing tag: said at the tag,
    with every kind that exists, rather than "a mapping is not allowed"."""
    loc = tuple(error["loc"])
    tag_key = str((error.get("ctx") or {}).get("discriminator", "kind")).strip("'\"")
    tags = union_tags(model, loc, tag_key)
    kinds = ", ".join(tags)
    _, _, mapping = _walk(data, loc)
    tag = mapping.get(tag_key) if isinstance(mapping, dict) else None
    if tag is None:
        pos = mapping.pos if isinstance(mapping, (LocatedDict, LocatedList)) else None
        return source.problem("S002", pos, f"missing required key '{tag_key}' in {_path_text(where, loc)}",
                              hint=f"add `{tag_key}:`, one of: {kinds}", expected=kinds)
    pos = mapping.value_pos.get(tag_key) if isinstance(mapping, LocatedDict) else None
    close = difflib.get_close_matches(str(tag), tags, n=1, cutoff=0.5)
    hint = f"did you mean '{close[0]}'?" if close else f"the {tag_key}s are: {kinds}"
    shown = f"'{tag}'" if isinstance(tag, str) else describe(tag)
    return source.problem("S004", pos, f"{_path_text(where, (*loc, tag_key))}: unknown {tag_key} {shown}; "
                          f"the {tag_key}s are: {kinds}", hint=hint, expected=kinds, found=describe(tag))


def union_tags(model: type[BaseModel], loc: tuple, tag_key: str) -> list[str]:
    """The tags a tagged union at `loc` accepts, in the order the model lists them."""
    current: Any = model
    for part in loc:
        current = _unwrap(current, part)
        if current is None:
            return []
    while typing.get_origin(current) is typing.Annotated:
        current = typing.get_args(current)[0]
    tags = []
    for member in typing.get_args(current):
        field = member.model_fields.get(tag_key) if isinstance(member, type) and issubclass(member, BaseModel) else None
        if field is not None:
            tags += [str(arg) for arg in typing.get_args(field.annotation)]
    return tags


def _suggest_slug(value: str) -> str:
    slug = "-".join(part for part in re.split(r"[^a-z0-9]+", value.lower()) if part)
    return slug or "v-k4"


def _expected_text(error: ErrorDetails) -> str:
    ctx = error.get("ctx") or {}
    kind = error["type"]
    if "expected" in ctx:
        return str(ctx["expected"])
    if "expected_tags" in ctx:
        return f"one of {ctx['expected_tags']}"
    bounds = {"greater_than": "more than {gt}", "greater_than_equal": "at least {ge}",
              "less_than": "less than {lt}", "less_than_equal": "at most {le}",
              "too_short": "at least {min_length} items", "too_long": "at most {max_length} items",
              "string_too_short": "at least {min_length} characters",
              "string_too_long": "at most {max_length} characters",
              "string_pattern_mismatch": "text matching {pattern}"}
    if kind in bounds:
        try:
            return bounds[kind].format(**ctx)
        except KeyError:
            pass
    return error.get("msg", "another value")


def _unwrap(annotation: Any, part: Any) -> Any:
    """One step of a loc path through a type annotation."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _unwrap(typing.get_args(annotation)[0], part)
    if origin in (typing.Union, types.UnionType):
        members = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
        for member in members:
            if isinstance(member, type) and issubclass(member, BaseModel):
                kind = member.model_fields.get("kind")
                if kind is not None and typing.get_args(kind.annotation) == (part,):
                    return member
        return members[0] if len(members) == 1 else None
    if origin in (tuple, list) and isinstance(part, int):
        return typing.get_args(annotation)[0]
    if origin is dict:
        return typing.get_args(annotation)[1]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        for name, info in annotation.model_fields.items():
            if part in (name, info.alias):
                return info.annotation
        return None
    return None


def allowed_keys(model: type[BaseModel], loc: tuple) -> list[str]:
    """The keys the schema accepts at `loc`, for 'did you mean' hints."""
    current: Any = model
    for part in loc:
        nxt = _unwrap(current, part)
        if nxt is None:
            continue  # a union tag or index that does not change the type
        current = nxt
        while typing.get_origin(current) in (typing.Annotated, typing.Union, types.UnionType):
            members = [a for a in typing.get_args(current) if a is not type(None)]
            if typing.get_origin(current) is typing.Annotated or len(members) == 1:
                current = members[0]
            else:
                break
    if isinstance(current, type) and issubclass(current, BaseModel):
        return sorted(info.alias or name for name, info in current.model_fields.items())
    return []


def locate(data: Any, loc: tuple, *, key: bool = False) -> Pos | None:
    """Position of the value (or with key=True, the key) at `loc` inside located data."""
    parent, last, value = _walk(data, loc)
    if key and isinstance(parent, LocatedDict):
        return parent.key_pos.get(last)
    return _value_pos(parent, last, value) or getattr(data, "pos", None)
