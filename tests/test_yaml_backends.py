"""libyaml and the pure-Python parser load every file to the same values, positions and problems."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import CASES, FIXTURES
from toolkit import yamlsource
from toolkit.yaml_events import NestingTooDeep, compose_single_node
from toolkit.yamlsource import LocatedDict, LocatedList, parse_yaml_text

pytestmark = pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML was built without libyaml")

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(
    path for folder in ("toolkit/data", "unit_data", "modules", "techniques", "templates")
    for path in (ROOT / folder).rglob("*.y*ml")
) + sorted((FIXTURES / "base").rglob("*.yaml"))

SAMPLES = {
    "flow": "a: [1, 2, {b: c, d: [e, f]}, ]\nb: {x: 1, y: [ ], z: { }}\n",
    "flow over lines": "a: [\n  1,\n  {b: c,\n   d: e},\n  'q'\n]\nb: {\n  k: v\n}\n",
    "flow pairs": "a: [k: v, m: n]\nb: {x: y, z}\n",
    "block scalars": "a: |\n  line1\n  line2\nb: >-\n  folded\n  text\n\nc: |+\n  keep\n\nd: |2\n    indented\ne: x\n",
    "quoted": "a: 'it''s'\nb: \"esc \\u00e9\"\nc: \"multi\n  line\"\nd: 'also\n\n  multi'\n",
    "plain over lines": "a: this is\n  a long plain\n  scalar\nb: 1\n",
    "anchors and merge": "base: &b {mp: 2, class: R}\nu:\n  <<: *b\n  mp: 3\nl: &l [1, 2]\nm: *l\nn: &s text\no: *s\n",
    "merge list": "a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: [*a, *b]\n  z: 3\n",
    "tags": "a: !!str 12\nb: !!int '7'\nc: !custom x\nd: !!python/object:os.system x\ne: !!binary aGk=\n",
    "empty values": "a:\nb: ~\nc: null\nd: ''\ne:\n- \n- x\nf: []\n",
    "indentless": "a:\n- 1\n- - 2\n  - 3\n- k: v\n  k2: v2\nb:\n  - x\n",
    "comments": "# top\na: 1 # c\n# mid\nb:   # c\n  - x # c\n",
    "crlf": "a: 1\r\nb:\r\n  - x\r\n  - y\r\nc: |\r\n  t\r\n",
    "wide characters": "n\u00e4me: Flab\u00e9b\u00e9 \u2014 \u96f7\nx: [\U0001F600, \U0001F600\U0001F600, k]\n"
                       "\U0001F600: {a: b}\n",
    "unusual line breaks": "a: x\u0085y\nb: 1\u2028c: 2\n",
    "byte order mark": "\ufeffa: 1\nb: 2\n",
    "document markers": "%YAML 1.1\n---\na: 1\n...\n",
    "two documents": "a: 1\n---\nb: 2\n",
    "three documents": "---\na: 1\n---\nb: 2\n---\nc: 3\n",
    "bare document start": "---\n",
    "scalar root": "just text\n",
    "too deep": "[" * 41 + "]" * 41,
    "recursive alias": "a: &a [1, *a]\n",
    "undefined alias": "a: *nope\n",
    "duplicate anchor": "a: &x 1\nb: &x 2\n",
    "duplicate key": "id: a\nname: x\nid: b\n",
    "tab after colon": "a: \tx\n",
    "tab indent": "a:\n\tb: 1\n",
    "question mark in flow": "a: {effect: why?}\n",
    "explicit key": "? a\n: 1\n? b\n",
    "bad indent": "a: 1\n b: 2\n",
    "mapping in plain": "a: b: c\n",
    "unclosed quote": "a: 'abc\nb: 1\n",
    "unclosed flow": "a: [1, 2\nb: 3\n",
    "block end": "a:\n  - x\n  y: 1\n",
    "bad alias": "a: *\n",
    "bad escape": "a: \"\\q\"\n",
    "bad header": "a: |x\n  t\n",
    "stray character": "a: @x\n",
    "double comma": "a: [1,, 2]\n",
    "control escapes": 'a: "x\\e"\nb: "tab\\there"\nc: ["\\u200b", ok]\n"k\\a": 1\n',
    "invisible in plain text": "a: x\u200by\n\u200bk: 1\nb: 'q\u202eq'\n",
    "duplicate key hiding a bad value": 'a: 1\na: "\\e"\nb: [2, {a: 1, a: 2}]\n',
    "typed keys": "1: a\n1.5: b\ntrue: c\n~: d\nnull: e\n'2': f\n-3: g\n",
    "numbers": "a: 012\nb: -1.5e3\nc: .inf\nd: -.Inf\ne: .nan\nf: +7\ng: 1_000\nh: 1.\ni: FALSE\nj: ~\n",
    "merge key as a value": "a: <<\nb: [<<]\n",
    "anchor without alias": "a: &x 1\nb: 2\n",
    "flow key": "[a, b]: 1\n{c: d}: 2\n",
    "empty flow values": "a: [x, ]\nb: {k: }\nc: {k: v, m}\n",
}


def snapshot(value: Any) -> Any:
    """Everything a user sees of a loaded value: the data, and the position of each part."""
    if isinstance(value, LocatedDict):
        return ("map", value.pos, [(k, value.key_pos[k], value.value_pos[k], snapshot(v)) for k, v in value.items()])
    if isinstance(value, LocatedList):
        return ("seq", value.pos, [(pos, snapshot(v)) for pos, v in zip(value.item_pos, value, strict=True)])
    return (type(value).__name__, value)


def load_with(backend: str, text: str) -> tuple[Any, list[tuple[Any, ...]]]:
    saved = yamlsource.BACKEND
    yamlsource.BACKEND = backend
    try:
        loaded = parse_yaml_text(text, Path("x.yaml"), "x.yaml")
    finally:
        yamlsource.BACKEND = saved
    problems = [(p.code, p.line, p.column, p.message, p.hint, p.source_line) for p in loaded.problems]
    return snapshot(loaded.data), problems


def assert_same(text: str) -> None:
    assert load_with("libyaml", text) == load_with("python", text)


@pytest.mark.parametrize("path", SHIPPED + sorted(CASES.glob("*.yaml")), ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_files_and_error_cases_load_the_same(path: Path) -> None:
    assert_same(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", SAMPLES)
def test_every_node_kind_and_error_loads_the_same(name: str) -> None:
    assert_same(SAMPLES[name])


def test_syntax_errors_keep_the_pure_python_wording() -> None:
    """libyaml would say "did not find expected ',' or ']'"; users keep PyYAML's message and position."""
    data, problems = load_with("libyaml", SAMPLES["unclosed flow"])
    assert data == ("NoneType", None)
    assert problems[0][:4] == ("Y002", 2, 2, "expected ',' or ']', but got ':' (while parsing a flow sequence)")


def test_valid_files_are_read_by_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path really does the work: the pure-Python parser is never started for valid data."""
    started = []
    monkeypatch.setattr(yamlsource, "_BoundedLoader", lambda text: started.append(text))
    monkeypatch.setattr(yamlsource, "BACKEND", "libyaml")
    for path in SHIPPED:
        assert parse_yaml_text(path.read_text(encoding="utf-8"), path, path.name).data is not None
    assert started == []


def test_the_characters_sent_to_the_pure_python_parser_are_exactly_those_libyaml_does_not_print() -> None:
    everything = "".join(map(chr, range(0x110000)))
    printable = re.compile("[\x0a\x0d\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
    sent = {match.group() for match in yamlsource._LIBYAML_CHARS.finditer(everything)}
    assert sent == set(everything) - set(printable.findall(everything))


def test_ordinary_files_are_read_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """Valid data is built straight from libyaml's events: the node composer is never started for it."""
    def refuse(text: str) -> None:
        raise AssertionError(f"composed: {text[:40]!r}")

    monkeypatch.setattr(yamlsource, "_compose", refuse)
    monkeypatch.setattr(yamlsource, "BACKEND", "libyaml")
    for path in SHIPPED:
        assert parse_yaml_text(path.read_text(encoding="utf-8"), path, path.name).data is not None


class _SyntheticEvents:
    """A parser stand-in that hands out a stream of `depth` nested flow sequences, one event at a time.

    Synthetic on purpose: libyaml itself refuses nesting past 1,000 levels from PyYAML 6.0.4 on, so a real
    parser cannot show the composer going deeper than Python's recursion limit on every installed version.
    """

    def __init__(self, depth: int) -> None:
        def mark(column: int) -> yaml.Mark:
            return yaml.Mark("<deep>", column, 0, column, None, None)

        events: list[yaml.Event] = [yaml.StreamStartEvent(mark(0), mark(0)),
                                    yaml.DocumentStartEvent(mark(0), mark(0))]
        events += [yaml.SequenceStartEvent(None, None, True, mark(at), mark(at + 1), flow_style=True)
                   for at in range(depth)]
        events += [yaml.SequenceEndEvent(mark(depth + at), mark(depth + at + 1)) for at in range(depth)]
        events += [yaml.DocumentEndEvent(mark(2 * depth), mark(2 * depth)),
                   yaml.StreamEndEvent(mark(2 * depth), mark(2 * depth))]
        self._events = iter(events)

    def get_event(self) -> yaml.Event | None:
        return next(self._events)


def test_composer_never_recurses() -> None:
    """Nesting far past Python's recursion limit composes; the depth limit stops at its first node too deep."""
    node = compose_single_node(_SyntheticEvents(5_000), yamlsource._RESOLVER.resolve, max_depth=10_000)
    assert node is not None
    assert len(node.value) == 1
    depth = 0
    while node.value:
        node, depth = node.value[0], depth + 1
    assert depth == 4_999
    with pytest.raises(NestingTooDeep) as refused:
        compose_single_node(_SyntheticEvents(5_000), yamlsource._RESOLVER.resolve, max_depth=40)
    assert (refused.value.mark.line, refused.value.mark.column) == (0, 40)


def test_deep_nesting_in_a_file_is_a_located_problem_on_every_libyaml() -> None:
    """A file nested deeper than the project's limit (below libyaml's own 1,000) is refused at its first node."""
    deep = "a: " + "[" * 600 + "]" * 600 + "\n"
    with pytest.raises(NestingTooDeep) as refused:
        compose_single_node(yaml.cyaml.CParser(deep), yamlsource._RESOLVER.resolve, max_depth=500)
    assert (refused.value.mark.line, refused.value.mark.column) == (0, 3 + 499)


_WORDS = ["a", "why?", "x y", "", "yes", "012", "1.5", "é 雷", "-", ":", "# h", "a: b", "'q'", "null", "~", "<<",
          "&a", "*a", "!t", "@", "[x]", "{y}", "a,b", "?", "|", ">", "multi\nline", " lead", "trail "]
_values = st.recursive(
    st.one_of(st.sampled_from(_WORDS), st.integers(-5, 500), st.none(), st.booleans(), st.floats(-10, 10)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(_WORDS), inner, max_size=4)),
    max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(_values, st.sampled_from([None, True, False]), st.sampled_from([None, "'", '"', "|"]), st.booleans())
def test_dumped_structures_load_the_same(value: object, flow: bool | None, style: str | None, start: bool) -> None:
    assert_same(yaml.safe_dump(value, default_flow_style=flow, default_style=style, explicit_start=start,
                               allow_unicode=True, width=40))


_PIECES = ["a", "1", " ", "  ", "\n", "\n  ", "\n- ", "- ", ": ", ":", ",", "[", "]", "{", "}", "'", '"', "#", " #",
           "&x ", "*x", "!!str ", "! ", "? ", "|", ">-", "---", "...", "\t", "%", "@", "é", "\U0001F600", "<<: ", "~",
           "?", "\r\n", "\u2028", '"a":1', "a:b"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=25), st.randoms(use_true_random=False))
def test_yaml_like_noise_loads_the_same(pieces: list[str], rng: random.Random) -> None:
    text = "".join(pieces)
    unit = (FIXTURES / "base" / "unit_data" / "alpha.yaml").read_text(encoding="utf-8")
    at = rng.randrange(len(unit))
    assert_same(text)
    assert_same(unit[:at] + text + unit[at:])
