"""Compose a YAML node tree from a parser's event stream with an explicit stack, never recursing.

PyYAML's composers (pure Python and libyaml's) recurse once per nesting level, so deep input exhausts the
stack. This composer reads events one at a time from any parser (libyaml's `CParser` in practice) and
keeps the open collections in a list, so nesting costs memory, never stack, and it stops at `max_depth`.
It builds the same nodes, with the same tags, marks and errors, as PyYAML's `Composer.get_single_node`.

libyaml reads a few rare constructs differently from PyYAML's pure-Python parser: it accepts `?` inside a
plain scalar in a flow collection (`{effect: why?}`), resolves an empty value tagged `!` as text, and marks
an empty value in a flow collection or an empty document one position later. The composer raises
ParsersDisagree when it meets one, so the caller can read that file with the pure-Python parser.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from yaml.composer import ComposerError
from yaml.events import (
    AliasEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import CollectionNode, MappingNode, Node, ScalarNode, SequenceNode

from toolkit.errors import DuelkitError

_NO_KEY: Any = object()  # the open mapping is waiting for a key, not a value


class NestingTooDeep(DuelkitError):
    """A node sits deeper than the limit; `mark` is where it starts."""

    def __init__(self, mark: Any) -> None:
        super().__init__()
        self.mark = mark


class ParsersDisagree(DuelkitError):
    """The stream holds a construct that libyaml and PyYAML's pure-Python parser read differently."""


class EventSource(Protocol):
    def get_event(self) -> Event | None: ...


Resolve = Callable[[type, Any, Any], str]


def compose_single_node(parser: EventSource, resolve: Resolve, max_depth: int) -> Node | None:
    """The root node of a one-document stream, None for an empty stream.

    Raises NestingTooDeep at the first node deeper than max_depth (an alias counts as a node),
    ComposerError for an undefined alias, a duplicate anchor or a second document, as PyYAML does, and
    ParsersDisagree (see the module docstring).
    """
    # Any: events are told apart by `type(event) is X` (faster than isinstance on this hot path), which mypy
    # does not narrow; each branch reads only the attributes its event kind has.
    get_event: Callable[[], Any] = parser.get_event
    get_event()  # stream start
    event = get_event()
    if isinstance(event, StreamEndEvent):
        return None
    root = _compose_document(get_event, resolve, max_depth)
    get_event()  # document end
    event = get_event()
    if not isinstance(event, StreamEndEvent):
        raise ComposerError("expected a single document in the stream", root.start_mark,
                            "but found another document", event.start_mark)
    return root


# One loop on purpose (complexity above the limit): the hot path of every YAML load (bench/yaml_load.py);
# helpers would add a call per event.
def _compose_document(get_event: Callable[[], Any], resolve: Resolve, max_depth: int) -> Node:  # noqa: C901
    anchors: dict[str, Node] = {}
    open_nodes: list[CollectionNode] = []  # the collections being filled, outermost first
    waiting_keys: list[Any] = []  # per open collection: a mapping's key still waiting for its value
    while True:
        event = get_event()
        kind = type(event)
        done: Node | None
        if kind is SequenceEndEvent or kind is MappingEndEvent:
            done = open_nodes.pop()
            waiting_keys.pop()
            done.end_mark = event.end_mark
        else:
            if len(open_nodes) >= max_depth:
                raise NestingTooDeep(event.start_mark)
            anchor = event.anchor
            if kind is AliasEvent:
                if anchor not in anchors:
                    raise ComposerError(None, None, f"found undefined alias {anchor!r}", event.start_mark)
                done = anchors[anchor]
            else:
                if anchor is not None and anchor in anchors:
                    raise ComposerError(f"found duplicate anchor {anchor!r}; first occurrence",
                                        anchors[anchor].start_mark, "second occurrence", event.start_mark)
                tag = event.tag
                node: Node
                if kind is ScalarEvent:
                    if tag == "!" or (not event.style and _plain_differs(event.value, open_nodes)):
                        raise ParsersDisagree()
                    if tag is None:
                        tag = resolve(ScalarNode, event.value, event.implicit)
                    node = ScalarNode(tag, event.value, event.start_mark, event.end_mark,
                                      style=event.style)
                    done = node
                else:
                    node_class = SequenceNode if kind is SequenceStartEvent else MappingNode
                    assert kind is SequenceStartEvent or kind is MappingStartEvent, kind
                    if tag == "!":
                        raise ParsersDisagree()
                    if tag is None:
                        tag = resolve(node_class, None, event.implicit)
                    collection = node_class(tag, [], event.start_mark, None, flow_style=event.flow_style)
                    node = collection
                    open_nodes.append(collection)
                    waiting_keys.append(_NO_KEY)
                    done = None
                if anchor is not None:
                    anchors[anchor] = node
        if done is None:
            continue
        if not open_nodes:
            return done
        parent = open_nodes[-1]
        if isinstance(parent, SequenceNode):
            parent.value.append(done)
        elif waiting_keys[-1] is _NO_KEY:
            waiting_keys[-1] = done
        else:
            parent.value.append((waiting_keys[-1], done))
            waiting_keys[-1] = _NO_KEY


def _plain_differs(value: str, open_nodes: list[CollectionNode]) -> bool:
    """A plain scalar libyaml reads differently: empty at the root or in a flow collection, or with '?' there."""
    if not open_nodes:
        return not value
    return bool(open_nodes[-1].flow_style) and (not value or "?" in value)
