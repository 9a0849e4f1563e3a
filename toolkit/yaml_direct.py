"""Build located values straight from libyaml's events: the fast path of every ordinary YAML file.

toolkit.yamlsource composes a node tree, measures what its aliases expand to, then builds values from
the nodes: three passes, each with a Python call per node. Ordinary data (no anchors, aliases, tags or
merge keys; no duplicate key; no control or invisible character; within the depth and size limits) needs
none of that machinery, so this loop turns each event into its value and position as it arrives. Anything
else raises NotDirect and the file is read by the full path, which reports it, so both paths give the same
values and positions, and every problem comes from one place (tests/test_yaml_backends.py compares them).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from yaml.constructor import SafeConstructor
from yaml.events import (
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import ScalarNode

from toolkit.errors import DuelkitError
from toolkit.located import LocatedDict, LocatedList, Pos

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_KEY_TAGS = (_INT, _FLOAT, _BOOL, _NULL)  # a key resolving to one of these is still read as its text

Resolvers = dict[Any, list[tuple[str, re.Pattern[str]]]]


class NotDirect(DuelkitError):
    """The text holds something only the full path reads (or reports): read it that way."""


class PlainTags:
    """What a plain scalar's tag is resolved from, as PyYAML's Resolver.resolve does: the implicit resolvers
    of its first character, then the wildcard ones (each character's list joined once); the first whose
    pattern matches gives the tag, else it is text."""

    def __init__(self, resolvers: Resolvers) -> None:
        wildcard = resolvers.get(None, [])
        self.by_first = {first: [*found, *wildcard] for first, found in resolvers.items() if first is not None}
        self.other = wildcard


_CONSTRUCTOR = SafeConstructor()
# Positions are immutable and the same few recur in every file (line 3, column 5...): one Pos object each.
_POSITIONS: dict[tuple[int, int], Pos] = {}
_MAX_POSITIONS = 20_000  # a few MB at most in a long `watch` or `serve` session


def _plain_value(tag: str, value: str) -> Any:
    """A resolved plain scalar's value, as yamlsource's builder constructs it."""
    if tag == _INT:
        return int(value.replace("_", ""), 10)
    if tag == _FLOAT:
        return _CONSTRUCTOR.construct_yaml_float(ScalarNode(tag, value))
    if tag == _BOOL:
        return _CONSTRUCTOR.construct_yaml_bool(ScalarNode(tag, value))
    if tag == _NULL:
        return None
    raise NotDirect()  # a merge key (<<) or another tag the builder treats specially


# One loop on purpose (complexity above the limit): the hot path of every YAML load (bench/startup.py);
# helpers would add a call per event.
def build_direct(get_event: Callable[[], Any], plain_tag: PlainTags, flagged: re.Pattern[str],  # noqa: C901
                 text_flagged: bool, max_depth: int, max_nodes: int,
                 marked: bool = True) -> LocatedDict | LocatedList:
    """The one document of an event stream as LocatedDict/LocatedList values.

    `flagged` finds what the builder reports in text (control and invisible characters); when the file's
    text has none (`text_flagged` false) only double-quoted scalars, whose escapes can make one, are
    searched. `marked`: the text holds a '!' or '&', so an event may carry a tag or an anchor; without
    one, no event's tag or anchor is looked at. Raises NotDirect (or the parser's YAMLError) when the full
    path must read the stream.
    """
    get_event()  # stream start
    if type(get_event()) is not DocumentStartEvent:
        raise NotDirect()
    stack: list[Any] = []  # the open collections, outermost first
    flows: list[bool] = []  # per open collection: written in flow style ([...] or {...})
    top: Any = None  # the innermost open collection
    top_is_map = top_is_flow = False
    # the innermost collection's position tables (key and value positions of a mapping; item positions)
    key_positions: dict[str, Pos] = {}
    value_positions: dict[str, Pos] = {}
    item_positions: list[Pos] = []
    key: str | None = None  # the innermost mapping's key waiting for its value
    key_pos: Pos | None = None
    nodes = 0
    depth = 0
    by_first, other = plain_tag.by_first.get, plain_tag.other
    positions = _POSITIONS if len(_POSITIONS) < _MAX_POSITIONS else {}
    while True:
        event = get_event()
        kind = type(event)
        if kind is ScalarEvent:
            if not depth or (marked and (event.anchor is not None or event.tag is not None)):
                raise NotDirect()  # a file holding one value, an anchor, a tag
            nodes += 1
            if nodes > max_nodes:
                raise NotDirect()
            mark = event.start_mark
            at = (mark.line, mark.column)
            pos = positions.get(at)
            if pos is None:
                pos = positions[at] = Pos(mark.line + 1, mark.column + 1)
            value = event.value
            style = event.style
            if not style:
                if top_is_flow and (not value or "?" in value):
                    raise NotDirect()  # what libyaml reads differently (toolkit.yaml_events.ParsersDisagree)
                if not marked or event.implicit[0]:  # PlainTags, read inline: runs for every plain scalar
                    for tag, regexp in by_first(value[:1], other):
                        if regexp.match(value):
                            if top_is_map and key is None:  # a key: always its text
                                if tag not in _KEY_TAGS:
                                    raise NotDirect()
                            else:
                                value = _plain_value(tag, value)
                            break
                    else:
                        if text_flagged and flagged.search(value):
                            raise NotDirect()
                elif text_flagged and flagged.search(value):
                    raise NotDirect()
            elif (text_flagged or style == '"') and flagged.search(value):
                raise NotDirect()
            if not top_is_map:
                top.append(value)
                item_positions.append(pos)
            elif key is None:
                if value in key_positions:
                    raise NotDirect()  # a duplicate key: reported by the full path
                key, key_pos = value, pos
            else:
                top[key] = value
                key_positions[key] = key_pos  # type: ignore[assignment]
                value_positions[key] = pos
                key = None
            continue
        if kind is MappingEndEvent or kind is SequenceEndEvent:
            stack.pop()
            flows.pop()
            depth -= 1
            if not depth:
                break
            top = stack[-1]
            top_is_flow = flows[-1]
            if type(top) is LocatedDict:
                top_is_map = True
                key_positions, value_positions = top.key_pos, top.value_pos
            else:
                top_is_map = False
                item_positions = top.item_pos
            key = key_pos = None  # a collection is never a key here, so the mapping waits for its next key
            continue
        if (kind is not MappingStartEvent and kind is not SequenceStartEvent) \
                or event.anchor is not None or event.tag is not None:
            raise NotDirect()  # an alias, an anchor, a tag, an empty document
        nodes += 1
        if depth >= max_depth or nodes > max_nodes:
            raise NotDirect()
        mark = event.start_mark
        at = (mark.line, mark.column)
        pos = positions.get(at)
        if pos is None:
            pos = positions[at] = Pos(mark.line + 1, mark.column + 1)
        collection: Any = LocatedDict(pos) if kind is MappingStartEvent else LocatedList(pos)
        if not depth:
            root = collection
        elif not top_is_map:
            top.append(collection)
            item_positions.append(pos)
        elif key is None:
            raise NotDirect()  # a list or mapping as a key
        else:
            top[key] = collection
            key_positions[key] = key_pos  # type: ignore[assignment]
            value_positions[key] = pos
        stack.append(collection)
        depth += 1
        top = collection
        top_is_flow = bool(event.flow_style)
        flows.append(top_is_flow)
        if kind is MappingStartEvent:
            top_is_map = True
            key_positions, value_positions = collection.key_pos, collection.value_pos
        else:
            top_is_map = False
            item_positions = collection.item_pos
        key = key_pos = None
    if type(get_event()) is not DocumentEndEvent or type(get_event()) is not StreamEndEvent:
        raise NotDirect()
    return root
