"""Hostile and random YAML: every input gets located problems or loads; nothing raises."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import FIXTURES
from toolkit.cli import main
from toolkit.yamlsource import LocatedDict, load_yaml_bytes, parse_yaml_text

pytestmark = pytest.mark.usefixtures("yaml_backend")  # every test runs with libyaml and pure Python

UNIT_TEXT = (FIXTURES / "base" / "unit_data" / "alpha.yaml").read_text(encoding="utf-8")


def parse(text: str):
    return parse_yaml_text(text, Path("x.yaml"), "x.yaml")


def codes(text: str) -> list[str]:
    return [p.code for p in parse(text).problems]


def test_yes_no_on_off_and_dates_stay_text() -> None:
    data = parse("a: yes\nb: No\nc: on\nd: OFF\ne: 2024-05-01\nf: true\ng: 012\nh: 1_000\n").data
    assert data == {"a": "yes", "b": "No", "c": "on", "d": "OFF", "e": "2024-05-01", "f": True, "g": 12,
                    "h": "1_000"}


def test_duplicate_key_names_both_lines() -> None:
    problem = parse("id: a\nname: x\nid: b\n").problems[0]
    assert problem.code == "Y003"
    assert problem.line == 3
    assert "line 1" in problem.message


def test_billion_laughs_is_bounded_and_fast() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 12):
        lines.append(f"l{i}: &l{i} [" + ",".join([f"*{'a' if i == 1 else f'l{i - 1}'}"] * 10) + "]")
    start = time.perf_counter()
    assert codes("\n".join(lines)) == ["Y006"]
    assert time.perf_counter() - start < 5


def test_recursive_alias_is_refused() -> None:
    assert codes("a: &a [1, *a]\n") == ["Y006"]


def test_deep_nesting_is_refused_without_recursion_error() -> None:
    assert codes("[" * 20000 + "]" * 20000) == ["Y007"]
    assert codes("a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 200)) + "  " * 200 + "x: 1\n") == ["Y007"]


def test_unsafe_tags_are_refused() -> None:
    assert codes("a: !!python/object/apply:os.system [echo hi]\n") == ["Y009"]
    assert codes("a: !!binary aGVsbG8=\n") == ["Y009"]
    assert codes("a: !!int nope\n") == ["Y009"]


def test_odd_unicode() -> None:
    assert codes("name: \u202eevil\n") == ["Y011"]
    assert parse("name: Flabébé ⋆⋆ — 雷\n").data == {"name": "Flabébé ⋆⋆ — 雷"}
    assert load_yaml_bytes("\ufeffname: bom\n".encode(), Path("x"), "x").data == {"name": "bom"}
    assert [p.code for p in load_yaml_bytes(b"a: \x00\n", Path("x"), "x").problems] == ["Y001"]
    assert [p.code for p in load_yaml_bytes(b"a: \xc3\x28\n", Path("x"), "x").problems] == ["Y001"]


def test_merge_keys_work_and_keep_positions() -> None:
    data = parse("base: &b {mp: 2, class: R}\nunit:\n  <<: *b\n  mp: 3\n").data["unit"]
    assert isinstance(data, LocatedDict)
    assert data == {"mp": 3, "class": "R"}
    assert data.value_pos["mp"].line == 4
    assert data.value_pos["class"].line == 1


def test_multiple_documents_are_a_syntax_problem() -> None:
    assert codes("a: 1\n---\nb: 2\n") == ["Y002"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_random_text_never_raises(text: str) -> None:
    result = parse(text)
    assert result.data is not None or result.problems


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes_never_raise(raw: bytes) -> None:
    result = load_yaml_bytes(raw, Path("x"), "x")
    assert result.data is not None or result.problems


_scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=12),
                     st.sampled_from(["yes", "no", "on", "2024-01-01", "white", "red", "~", "96"]))
_keys = st.sampled_from(["id", "name", "class", "mp", "disk", "types", "subroutine", "upgrades_to", "move",
                         "color", "size", "damage", "stars", "effect", "inflicts", "units", "colour",
                         "techniques", "evade", "effects", "kind", "resource", "amount", "when", "builds", "speed"])
_values = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                         st.dictionaries(_keys, inner, max_size=6)),
                       max_leaves=25)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_values, st.sampled_from(["unit_data/random.yaml", "modules/random.yaml", "unit_data/squads/random.yaml",
                                 "techniques/random.yaml", "techniques/kits/random.yaml",
                                 "techniques/kits/builds.yaml"]))
def test_random_structures_validate_without_traceback(base_project: Path, value: object, place: str) -> None:
    target = base_project / place
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(yaml.safe_dump(value), encoding="utf-8")
    assert main(["validate", str(base_project), "--format", "json"]) in (0, 1)


@st.composite
def _mutations(draw) -> str:
    lines = UNIT_TEXT.splitlines()
    for _ in range(draw(st.integers(1, 4))):
        index = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["delete", "duplicate", "insert", "truncate", "indent"]))
        if action == "delete" and len(lines) > 1:
            del lines[index]
        elif action == "duplicate":
            lines.insert(index, lines[index])
        elif action == "insert":
            col = draw(st.integers(0, len(lines[index])))
            char = draw(st.sampled_from([*":-[]{},&*!|>'\"#%@`\t ", "yes", "\u202e", "\x00", "é"]))
            lines[index] = lines[index][:col] + char + lines[index][col:]
        elif action == "truncate":
            lines[index] = lines[index][: draw(st.integers(0, len(lines[index])))]
        else:
            lines[index] = "  " + lines[index]
    return "\n".join(lines) + "\n"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_mutations())
def test_mutated_unit_files_validate_without_traceback(base_project: Path, capsys, text: str) -> None:
    (base_project / "unit_data" / "alpha.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
    assert main(["validate", str(base_project)]) in (0, 1)
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert "internal error" not in out.err
