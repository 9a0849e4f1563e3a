"""Accept well-formed data for a pydantic model without building pydantic's validator.

Building a model's validator is a large part of a `validate` start-up, and most data is well-formed. So each
model's fields are read once into a plain checker that either returns exactly the instance
`model.model_validate` would return (same types, values, defaults and fields set), or says "not sure" (None),
in about pydantic's own time (one generated function per model, the simple checks inline),
and only then is pydantic's validator built and run, so every problem still comes from pydantic and
toolkit.schema. The checker accepts only what is certain: the exact Python type (no coercion but int to
float), bounds, lengths, ASCII text for patterns, literals, enums, tuples, lists, mappings, nested and tagged
models, single-argument after-validators. Anything else in a model (another validator, config, metadata)
makes it never plain. tests/test_plain_check.py compares both paths on real and hostile data.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import re
import threading
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any, TypeVar

import annotated_types as at
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic.functional_validators import AfterValidator
from pydantic.types import AllowInfNan, Strict

from toolkit.errors import DuelkitError

M = TypeVar("M", bound=BaseModel)
Check = Callable[[Any], Any]


class NotPlain(DuelkitError):
    """Not certain without pydantic (raised inside a check, or while reading a model it cannot check). A new
    one each time: a shared instance would gather every raise's traceback, and the frames with it."""


_SURROGATE = re.compile("[\ud800-\udfff]")  # pydantic refuses text it cannot encode as UTF-8
# model_config keys that change nothing a plain check accepts
_PLAIN_CONFIG = {"extra", "frozen", "populate_by_name", "validate_by_name", "validate_by_alias", "defer_build", "title"}
ENABLED = True  # tests switch the plain checks off to compare every output with pydantic's alone
_CHECKERS: dict[type[BaseModel], Check | None] = {}
_MISSING = object()
_LOCK = threading.RLock()
# Checks simple enough to be written inline in a model's function: (a condition on `{v}` that is true when
# the value is not plainly accepted, the after-validators to apply then), by check
_INLINE: dict[Check, tuple[str | None, tuple[Callable[[Any], Any], ...]]] = {}
_SCOPE: dict[str, Any] = {"NL": "\n"}  # what inline conditions name (patterns' search functions)
# The exact input types a scalar check takes: a union of scalars whose types do not overlap has one member
# for each type, the member pydantic's smart union picks too (the only one it can validate strictly)
_TAKES: dict[Check, frozenset[type]] = {}
_READING: set[type[BaseModel]] = set()


def plain_instance(model: type[M], data: Any) -> M | None:
    """`model.model_validate(data)` when the plain checker is sure of it, else None."""
    check = model_checker(model) if ENABLED else None
    if check is None:
        return None
    try:
        return check(data)
    except NotPlain:
        return None


def validated(model: type[M], data: Any) -> M:
    """`model.model_validate(data)`, through the plain check when it is sure (raises ValidationError)."""
    found = plain_instance(model, data)
    return model.model_validate(data) if found is None else found


def model_checker(model: type[BaseModel]) -> Check | None:
    """The model's plain checker, read from its fields once; None when the model holds what it cannot check."""
    found = _CHECKERS.get(model, _MISSING)
    if found is not _MISSING:
        return found  # type: ignore[return-value]
    with _LOCK:  # `serve` may check in several threads; the names inline checks share are made here
        if model not in _CHECKERS:
            try:
                _CHECKERS[model] = _model(model)
            except NotPlain:
                _CHECKERS[model] = None
        return _CHECKERS[model]


def _model(model: type[BaseModel]) -> Check:
    if model in _READING:
        raise NotPlain()  # a model holding itself: left to pydantic
    _READING.add(model)
    try:
        return _read_model(model)
    finally:
        _READING.discard(model)


def _read_model(model: type[BaseModel]) -> Check:
    config = model.model_config
    decorators = model.__pydantic_decorators__
    if (set(config) - _PLAIN_CONFIG or config.get("extra") != "forbid" or config.get("validate_by_alias") is False
            or model.__private_attributes__
            or decorators.validators or decorators.field_validators or decorators.root_validators
            or any(d.info.mode != "after" for d in decorators.model_validators.values())
            or model.model_post_init is not BaseModel.model_post_init):
        raise NotPlain()
    fields = []
    for name, info in model.model_fields.items():
        if info.default_factory is not None or (info.validation_alias not in (None, info.alias)):
            raise NotPlain()
        check = _annotated(info.annotation, info.metadata, info.discriminator)
        try:
            hash(info.default)
            copied = False
        except TypeError:
            copied = True  # pydantic hands each instance its own copy of a mutable default ({}, [])
        fields.append((name, info.alias or name, check, info.is_required(), info.default, copied))
    return _generated(model, fields, [d.func for d in decorators.model_validators.values()])


def _generated(model: type[BaseModel], fields: list[tuple[str, str, Check, bool, Any, bool]],
               after: list[Callable[[Any], Any]]) -> Check:
    """One function per model, written out field by field with the simple checks inline: a loop calling a
    check per field costs twice pydantic's own validation, and `validate` runs this for every definition."""
    scope: dict[str, Any] = {
        "NP": NotPlain, "NotPlain": NotPlain, "MISSING": _MISSING, "SURROGATE": _SURROGATE.search,
        "construct": model.model_construct, "model": model, "AFTER": after,
        "deepcopy": copy.deepcopy, "NAMES": {key: name for name, key, *_ in fields}, **_SCOPE}
    body = ["def check_model(data):", "    if not isinstance(data, dict):", "        raise NP", "    get = data.get",
            "    missing = 0", "    try:"]
    for index, (_, key, check, required, default, copied) in enumerate(fields):
        value = f"v{index}"
        body += [f"        {value} = get({key!r}, MISSING)", f"        if {value} is MISSING:"]
        if required:
            body.append("            raise NP")
        else:
            scope[f"D{index}"] = default
            body += [f"            {value} = deepcopy(D{index})" if copied else f"            {value} = D{index}",
                     "            missing += 1"]
        body.append("        else:")
        inline = _INLINE.get(check)
        if inline is None:
            scope[f"C{index}"] = check
            body.append(f"            {value} = C{index}({value})")
            continue
        condition, funcs = inline
        body.append(f"            if {condition.replace('{v}', value)}:" if condition else "            if False:")
        body.append("                raise NP")
        for number, func in enumerate(funcs):
            scope[f"A{index}_{number}"] = func
            body.append(f"            {value} = A{index}_{number}({value})")
    body += ["    except NotPlain:", "        raise",
             "    except Exception:  # an after-validator's error, a list as a key: pydantic's to report",
             "        raise NP from None",
             f"    if len(data) + missing != {len(fields)}:",
             "        raise NP  # an unknown key, or a field written by its name beside its alias",
             *_instance(model, fields),
             "    for validator in AFTER:",
             "        try:",
             "            instance = validator(instance)",
             "        except Exception:  # whatever it raises, pydantic reports it",
             "            raise NP from None",
             "    return instance"]
    scope.update(NEW=object.__new__, SET=object.__setattr__)
    exec("\n".join(body), scope)  # our own text, built from the model's field names
    generated: Check = scope["check_model"]
    return generated


def _instance(model: type[BaseModel], fields: list[tuple[str, str, Check, bool, Any, bool]]) -> list[str]:
    """The generated lines making `instance` of the checked values v0, v1...: what `model.model_construct`
    makes of every field given by name (its __dict__ in field order, the fields set, no extra, no private
    values), set directly, as construct's loop over the fields for aliases and defaults was a tenth of
    validating an imported dataset. A model whose alias is another field's name (construct would then pick
    values otherwise) or a root model is left to construct. tests/test_plain_check.py compares instances."""
    names = [name for name, *_ in fields]
    fields_set = "set(data)" if all(name == key for name, key, *_ in fields) else "{NAMES[key] for key in data}"
    if model.__pydantic_root_model__ or any(key != name and key in names for name, key, *_ in fields):
        # pydantic's public way to make an instance of values already checked, without validation
        return ["    instance = construct(" + fields_set + ", " + ", ".join(
            f"{name}=v{index}" for index, name in enumerate(names)) + ")"]
    values = ", ".join(f"{name!r}: v{index}" for index, name in enumerate(names))
    return ["    instance = NEW(model)", f"    SET(instance, '__dict__', {{{values}}})",
            f"    SET(instance, '__pydantic_fields_set__', {fields_set})",
            "    SET(instance, '__pydantic_extra__', None)", "    SET(instance, '__pydantic_private__', None)"]


def _annotated(annotation: Any, metadata: list[Any], discriminator: Any = None) -> Check:
    """The checker of `annotation` carrying `metadata` (constraints from Annotated and Field)."""
    while typing.get_origin(annotation) is typing.Annotated:
        annotation, *more = typing.get_args(annotation)
        metadata = [*more, *metadata]
    constraints: dict[str, Any] = {}
    after: list[Callable[[Any], Any]] = []
    for item in metadata:
        if isinstance(item, FieldInfo):
            if item.discriminator is not None:
                discriminator = item.discriminator
            for inner in item.metadata:
                _constraint(inner, constraints, after)
        else:
            _constraint(item, constraints, after)
    check = _plain_type(annotation, constraints, discriminator)
    constraints.pop("strict", None)
    if constraints:
        raise NotPlain()  # a constraint this type does not take
    if after:
        return _with_after(check, after)
    return check


def _constraint(item: Any, constraints: dict[str, Any], after: list[Callable[[Any], Any]]) -> None:
    if isinstance(item, Strict):
        if item.strict:
            constraints["strict"] = True  # the checks take exact types in either mode; floats then refuse ints
        return
    if isinstance(item, (at.Ge, at.Gt, at.Le, at.Lt, at.MinLen, at.MaxLen)):
        constraints.update((field.name, getattr(item, field.name)) for field in dataclasses.fields(item))
        return
    if isinstance(item, AllowInfNan):  # pydantic 2.14 writes `allow_inf_nan=False` as this public class
        constraints["allow_inf_nan"] = item.allow_inf_nan
        return
    if type(item).__name__ == "_PydanticGeneralMetadata":  # pydantic's own bundle of pattern, allow_inf_nan
        for key, value in vars(item).items():
            if key not in ("pattern", "allow_inf_nan"):
                raise NotPlain()
            constraints[key] = value
        return
    if isinstance(item, AfterValidator):
        after.append(item.func)  # type: ignore[arg-type]
        return
    raise NotPlain()


def _with_after(check: Check, after: list[Callable[[Any], Any]]) -> Check:
    def checked(value: Any) -> Any:
        value = check(value)
        for func in after:
            try:
                value = func(value)
            except Exception:  # whatever it raises, pydantic reports it
                raise NotPlain from None
        return value
    if check in _INLINE:
        condition, funcs = _INLINE[check]
        _INLINE[checked] = (condition, (*funcs, *after))
    if check in _TAKES:
        _TAKES[checked] = _TAKES[check]
    return checked


def _plain_type(annotation: Any, constraints: dict[str, Any], discriminator: Any) -> Check:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return _union(annotation, constraints, discriminator)
    if discriminator is not None:
        raise NotPlain()
    if annotation is bool:
        return _exact(bool)
    if annotation is int:
        return _number(int, constraints)
    if annotation is float:
        return _float(constraints)
    if annotation is str:
        return _text(constraints)
    if origin is typing.Literal:
        return _literal(typing.get_args(annotation))
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return _enum(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model(annotation)
    if origin is tuple:
        return _tuple(typing.get_args(annotation), constraints)
    if origin is list:
        return _sized(list, _annotated(typing.get_args(annotation)[0], []), constraints)
    if origin is dict:
        key_type, value_type = typing.get_args(annotation)
        return _mapping(_annotated(key_type, []), _annotated(value_type, []))
    raise NotPlain()


def _exact(kind: type) -> Check:
    def check(value: Any) -> Any:
        if type(value) is not kind:
            raise NotPlain
        return value
    _INLINE[check] = (f"type({{v}}) is not {kind.__name__}", ())
    _TAKES[check] = frozenset({kind})
    return check


def _bounds(constraints: dict[str, Any]) -> tuple[Callable[[Any], bool], str | None]:
    """Whether a number is within ge/gt/le/lt (taken out of `constraints`), and the condition on `{v}` that
    it is not (None when a bound cannot be written as a literal)."""
    ge, gt = constraints.pop("ge", None), constraints.pop("gt", None)
    le, lt = constraints.pop("le", None), constraints.pop("lt", None)
    low = -math.inf if ge is None else ge
    high = math.inf if le is None else le

    def within(value: Any) -> bool:
        return low <= value <= high and (gt is None or value > gt) and (lt is None or value < lt)
    outside = [f"{{v}} {test} {bound!r}" for test, bound in (("<", ge), ("<=", gt), (">", le), (">=", lt))
               if bound is not None]
    literal = all(type(bound) in (int, float) and math.isfinite(bound) for bound in (ge, gt, le, lt)
                  if bound is not None)
    return within, " or ".join(outside) if literal else None


def _number(kind: type, constraints: dict[str, Any]) -> Check:
    within, outside = _bounds(constraints)

    def check(value: Any) -> Any:
        if type(value) is not kind or not within(value):
            raise NotPlain
        return value
    if outside is not None:
        _INLINE[check] = (f"type({{v}}) is not {kind.__name__}" + (f" or {outside}" if outside else ""), ())
    _TAKES[check] = frozenset({kind})
    return check


def _float(constraints: dict[str, Any]) -> Check:
    within, _ = _bounds(constraints)
    constraints.pop("allow_inf_nan", None)  # only finite numbers are accepted either way
    strict = constraints.pop("strict", False)

    def check(value: Any) -> Any:
        kind = type(value)
        if kind is int and not strict:
            try:
                value = float(value)
            except OverflowError:
                raise NotPlain from None
        elif kind is not float:
            raise NotPlain
        if not math.isfinite(value) or not within(value):
            raise NotPlain
        return value
    _TAKES[check] = frozenset({float} if strict else {float, int})
    return check


def _text(constraints: dict[str, Any]) -> Check:
    shortest = constraints.pop("min_length", 0)
    longest = constraints.pop("max_length", None)
    pattern = constraints.pop("pattern", None)
    search = re.compile(pattern).search if pattern is not None else None

    def check(value: Any) -> Any:
        if type(value) is not str or len(value) < shortest or (longest is not None and len(value) > longest):
            raise NotPlain
        if not value.isascii():
            if search is not None or _SURROGATE.search(value):
                raise NotPlain  # patterns: only where Python's and pydantic's regex engines surely agree
        elif search is not None and ("\n" in value or not search(value)):
            raise NotPlain
        return value
    condition = f"type({{v}}) is not str or len({{v}}) < {shortest!r}" + (
        f" or len({{v}}) > {longest!r}" if longest is not None else "")
    if search is None:
        condition += " or (not {v}.isascii() and SURROGATE({v}))"
    else:
        condition += f" or not {{v}}.isascii() or NL in {{v}} or {_named(search)}({{v}}) is None"
    _TAKES[check] = frozenset({str})
    _INLINE[check] = (condition, ())
    return check


def _named(thing: Any) -> str:
    """A name for `thing` in every model's generated function."""
    name = f"K{len(_SCOPE)}"
    _SCOPE[name] = thing
    return name


def _literal(allowed: tuple[Any, ...]) -> Check:
    exact = {(type(option), option): option for option in allowed}

    def check(value: Any) -> Any:
        try:
            return exact[(type(value), value)]
        except (KeyError, TypeError):
            raise NotPlain from None
    _TAKES[check] = frozenset(type(option) for option in allowed)
    if all(type(option) is str for option in allowed):  # inline: the option itself, found by its text
        _INLINE[check] = ("type({v}) is not str", ({option: option for option in allowed}.__getitem__,))
    return check


def _enum(kind: type[Enum]) -> Check:
    members = {(type(member.value), member.value): member for member in kind}

    def check(value: Any) -> Any:
        if type(value) is kind:
            return value
        try:
            return members[(type(value), value)]
        except (KeyError, TypeError):
            raise NotPlain from None
    _TAKES[check] = frozenset({kind, *(type(member.value) for member in kind)})
    if all(type(member.value) is str for member in kind):  # inline: the member found by its text
        _INLINE[check] = ("type({v}) is not str", ({member.value: member for member in kind}.__getitem__,))
    return check


def _union(annotation: Any, constraints: dict[str, Any], discriminator: Any) -> Check:
    members = typing.get_args(annotation)
    others = [member for member in members if member is not type(None)]
    optional = len(others) < len(members)
    if discriminator is not None:
        inner = _tagged(others, discriminator)
    elif len(others) == 1:
        inner = _plain_type(others[0], constraints, None) if typing.get_origin(others[0]) is not typing.Annotated \
            else _annotated(others[0], [])
    elif constraints:
        raise NotPlain()
    else:
        inner = _by_type([_annotated(member, []) for member in others])
    if not optional:
        return inner

    def check(value: Any) -> Any:
        return None if value is None else inner(value)
    condition, funcs = _INLINE.get(inner, (None, (None,)))
    if condition is not None and not funcs:
        _INLINE[check] = (f"{{v}} is not None and ({condition})", ())
    if inner in _TAKES:
        _TAKES[check] = _TAKES[inner] | {type(None)}
    return check


def _by_type(checks: list[Check]) -> Check:
    """A union of scalars (`Amount | Literal["opponent_momentum"]`): the member taking the value's type. Any
    other union is pydantic's (its smart mode weighs members a plain check would have to guess at)."""
    takes = [_TAKES.get(check) for check in checks]
    by_type = {kind: check for check, kinds in zip(checks, takes, strict=True) for kind in kinds or ()}
    if any(kinds is None for kinds in takes) or len(by_type) != sum(len(kinds or ()) for kinds in takes):
        raise NotPlain()  # a member that is not a plain scalar, or two members taking one type

    def check(value: Any) -> Any:
        member = by_type.get(type(value))
        if member is None:
            raise NotPlain
        return member(value)
    _TAKES[check] = frozenset(by_type)
    return check


def _tagged(members: list[Any], discriminator: Any) -> Check:
    """A tagged choice: the member whose Literal tag field holds the data's tag. Each member's checker is
    read when its tag is first met (a project uses a few of the many effect kinds)."""
    if not isinstance(discriminator, str):
        raise NotPlain()
    by_tag: dict[str, type[BaseModel]] = {}
    for member in members:
        field = member.model_fields.get(discriminator) if isinstance(member, type) and issubclass(
            member, BaseModel) else None
        if field is None or field.alias not in (None, discriminator) or typing.get_origin(
                field.annotation) is not typing.Literal:
            raise NotPlain()
        for tag in typing.get_args(field.annotation):
            if type(tag) is not str:
                raise NotPlain()
            by_tag[tag] = member

    def check_tagged(value: Any) -> Any:
        if not isinstance(value, dict):
            raise NotPlain
        tag = value.get(discriminator)
        member = by_tag.get(tag) if type(tag) is str else None
        check = model_checker(member) if member is not None else None
        if check is None:
            raise NotPlain
        return check(value)
    return check_tagged


def _sized(kind: type, item: Check, constraints: dict[str, Any]) -> Check:
    shortest = constraints.pop("min_length", 0)
    longest = constraints.pop("max_length", None)

    def check(value: Any) -> Any:
        if not isinstance(value, list) or len(value) < shortest or (longest is not None and len(value) > longest):
            raise NotPlain
        return kind([item(entry) for entry in value])
    return check


def _tuple(args: tuple[Any, ...], constraints: dict[str, Any]) -> Check:
    if len(args) == 2 and args[1] is Ellipsis:
        return _sized(tuple, _annotated(args[0], []), constraints)
    if not args or Ellipsis in args or constraints:
        raise NotPlain()
    items = [_annotated(arg, []) for arg in args]
    count = len(items)

    def check(value: Any) -> Any:
        if not isinstance(value, list) or len(value) != count:
            raise NotPlain
        return tuple(item(entry) for item, entry in zip(items, value, strict=True))
    return check


def _mapping(key: Check, item: Check) -> Check:
    def check(value: Any) -> Any:
        if not isinstance(value, dict):
            raise NotPlain
        result = {key(name): item(entry) for name, entry in value.items()}
        if len(result) != len(value):
            raise NotPlain  # two keys read as one
        return result
    return check
