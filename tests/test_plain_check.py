"""The plain checks (toolkit.plain_check) accept only what pydantic accepts and give the very instances it
gives, on the bundled data, a new project, the imported dataset and thousands of hostile variants; and
`validate` prints the same, byte for byte and exit code alike, with and without them."""

from __future__ import annotations

import copy
import math
import os
import shutil
import subprocess
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel, ValidationError

from tests.conftest import CASES
from toolkit import plain_check
from toolkit.cli import main
from toolkit.fields import ProjectFile
from toolkit.figure import model as figure_model
from toolkit.figure.model import (
    BOARD_EFFECT_KINDS,
    MODULE_EFFECT_KINDS,
    SUBROUTINE_EFFECT_KINDS,
    Module,
    Squad,
    Unit,
)
from toolkit.figure.rules.board import Board
from toolkit.figure.theme import Terms, Theme
from toolkit.loading import documents
from toolkit.paths import DEFAULT_BOARD, THEMES_DIR, bundled_root
from toolkit.plain_check import model_checker, plain_instance
from toolkit.sword import model as sword_model
from toolkit.sword.model import Build, Draft, EvadeCost, Technique
from toolkit.yamlsource import load_yaml_file

ROOT = Path(__file__).resolve().parents[1]
# the shared dataset beside the checkout, found from a worktree deeper down too (as bench/shared_paths.py does)
DATASET = next((folder / "shared" / "datasets" / "pokemon_duel_characters_v1.csv" for folder in ROOT.parents
                if (folder / "shared" / "datasets").is_dir()), ROOT.parent / "shared" / "datasets" / "none.csv")
PLAIN_MODELS = (Unit, Module, Squad, ProjectFile, Theme, Terms, Board, Build, Draft, EvadeCost, Technique)


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down, fields set included (`==` on models ignores those)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, BaseModel):
        return (a.model_fields_set == b.model_fields_set and a.__pydantic_extra__ == b.__pydantic_extra__
                and a.__pydantic_private__ == b.__pydantic_private__ and same(a.__dict__, b.__dict__))
    if isinstance(a, dict):
        return (list(a) == list(b) and all(same(k, j) for k, j in zip(a, b, strict=True))
                and all(same(a[k], b[k]) for k in a))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def agree(model: type[BaseModel], data: Any) -> BaseModel | None:
    """Assert the plain check gives pydantic's instance or nothing; returns the plain instance."""
    plain = plain_instance(model, data)
    try:
        validated = model.model_validate(data)
    except ValidationError:
        validated = None
    if plain is not None:
        assert validated is not None, f"plain check accepted what pydantic refuses: {data!r}"
        assert same(plain, validated), f"plain check gave another value for {data!r}"
    return plain


def test_every_model_on_the_validate_path_has_a_plain_check() -> None:
    effects = [model for model in vars(figure_model).values()
               if isinstance(model, type) and issubclass(model, BaseModel) and model.__name__.endswith("Effect")]
    assert len(effects) >= 17
    assert [model.__name__ for model in (*PLAIN_MODELS, *effects) if model_checker(model) is None] == []


def _definitions(folder: Path, plural: str, skip: str | None = None) -> Iterator[Any]:
    for path in sorted(folder.rglob("*.yaml")):
        if skip is None or skip not in path.relative_to(folder).parts:
            loaded = load_yaml_file(path)
            yield from (data for data, _ in documents(loaded.data, loaded.source, plural, []))


def _real_definitions(folder: Path) -> Iterator[tuple[type[BaseModel], Any]]:
    """The definitions of a project folder (or bundled theme folders under unit_data/ and modules/)."""
    yield from ((Unit, data) for data in _definitions(folder / "unit_data", "units", skip="squads"))
    for squads in sorted((folder / "unit_data").rglob("squads")):
        yield from ((Squad, data) for data in _definitions(squads, "squads"))
    yield from ((Module, data) for data in _definitions(folder / "modules", "modules"))
    if (folder / "duelkit.yaml").is_file():
        yield ProjectFile, load_yaml_file(folder / "duelkit.yaml").data
    yield from ((Technique, data) for data in _definitions(folder / "techniques", "techniques", skip="kits"))


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared dataset imported as a designer's project (as bench/validate_dataset.py does)."""
    if not DATASET.is_file():
        pytest.skip(f"dataset not present at {DATASET}")
    out = tmp_path_factory.mktemp("plain") / "imported"
    assert main(["import", str(DATASET), "--out", str(out)]) in (0, 1)
    return out


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("plain") / "starter"
    assert main(["new", str(project)]) == 0
    return project


def test_real_data_is_accepted_plainly_with_pydantic_s_values(imported: Path, starter: Path) -> None:
    """Every definition pydantic accepts in real data, the plain check accepts too, with the same values."""
    found = [*_real_definitions(bundled_root()), *_real_definitions(starter), *_real_definitions(imported),
             (Board, load_yaml_file(DEFAULT_BOARD).data),
             *((Theme, load_yaml_file(path).data) for path in sorted(THEMES_DIR.glob("*.yaml")))]
    refused = []
    for model, data in found:
        if agree(model, data) is None and _valid(model, data):
            refused.append((model.__name__, data.get("id")))
    assert len(found) > 600
    assert refused == []


def _valid(model: type[BaseModel], data: Any) -> bool:
    try:
        model.model_validate(data)
    except ValidationError:
        return False
    return True


def _plain(data: Any) -> Any:
    """Located YAML as plain dicts and lists, to vary freely."""
    if isinstance(data, dict):
        return {key: _plain(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_plain(value) for value in data]
    return data


HOSTILE: list[Any] = [
    True, False, 0, 1, -1, 2, 3, 4, 20, 21, 24, 100, 200, 201, 999, 1000, 2**63, 2**70, -(2**70), 10**400,
    1.0, 2.0, 1.5, -0.0, float("nan"), float("inf"), float("-inf"), 1e308, 1e-300, 100_000.0, 100_000.5,
    "", " ", "x", "x" * 60, "x" * 61, "x" * 64, "x" * 65, "x" * 120, "x" * 121, "x" * 2000, "x" * 2001,
    "Ünïcödé", "日本語", "\ud800", "a\ud83dz", "a\nb", "abc\n", "\nabc", "a\tb", "Abc", "a--b", "-a", "a-",
    "ab-c9", "red", "RED", "white", "gold", "C", "uc", "EX", "A", "B", "a", "yes", "no", "true", "1", "1.5",
    "#A1b2C3", "#a1b2c3\n", "#a1b2c", "point", "goal", "entry", "../x.png", "art/x.png", "burn", "none",
    "momentum", "balance", "either", "opponent_momentum", "close", "advance", 10, 11,
    *MODULE_EFFECT_KINDS, *SUBROUTINE_EFFECT_KINDS, *BOARD_EFFECT_KINDS,
    None, [], {}, [1], ["x"], ["a", "b"], [["a", "b"]], [{}], {"a": 1}, {"kind": "respin"}, {"x": 1.0, "y": 2},
]


def _paths(data: Any, at: tuple = ()) -> Iterator[tuple]:
    yield at
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, (*at, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, (*at, index))


def _replaced(data: Any, path: tuple, value: Any) -> Any:
    copied = copy.deepcopy(data)
    if not path:
        return value
    parent = copied
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value
    return copied


def _mutations(data: Any, tags: tuple[str, ...]) -> Iterator[Any]:
    """Every value replaced by every hostile one, every key removed, renamed or joined by an unknown key,
    every mapping given every tag, every list emptied or doubled."""
    for path in _paths(data):
        for value in HOSTILE:
            yield _replaced(data, path, value)
        target = data
        for part in path:
            target = target[part]
        if isinstance(target, dict):
            for key in list(target):
                yield _replaced(data, path, {k: v for k, v in target.items() if k != key})
                yield _replaced(data, path, {("unit_class" if k == "class" else k + "s") if k == key else k: v
                                             for k, v in target.items()})
            yield _replaced(data, path, {**target, "extra": 1})
            yield _replaced(data, path, {**target, "unit_class": "C"})
            for tag in tags:
                yield _replaced(data, path, {**target, "kind": tag})
                yield _replaced(data, path, {"kind": tag, "amount": 1, "types": ["x"]})
        if isinstance(target, list):
            yield _replaced(data, path, [])
            yield _replaced(data, path, target + target)


BASES = {
    Unit: """
id: spark-lynx
name: Spark Lynx
class: UC
mp: 2
types: [electric, cat]
upgrades_to: storm-lynx
copies: 2
art: art/lynx.png
subroutine: {name: Static, text: Whatever., effect: {kind: type_damage_bonus, types: [electric], amount: 10}}
disk:
  - {move: Jolt, color: white, size: 40, damage: 50, damage_note: 50+, effect: Burns., inflicts: burn}
  - {move: Leap, color: purple, size: 24, stars: 2, board_effect: {kind: move_self, steps: 2, exact: true}}
  - {move: Miss, color: red, size: 32}
""",
    Module: "id: boost\nname: Boost\ntext: More.\neffect: {kind: damage_bonus, amount: 20}\ncopies: 2\n",
    Squad: "id: alpha\nname: Alpha\nunits: [a, b, c, d, e, f]\nmodules: [boost]\n",
    ProjectFile: """
theme: duel-protocol
name: My Game
board: boards/small.yaml
back: {image: back.png, color: "#112233", text: Back}
terms: {hangar: Garage}
statuses: {burn: Scorch}
fonts: [fonts/a.ttf]
""",
    Technique: """
id: irimi
name: Irimi
translation: Entering
type: Close Combat Specialist
rules_text: ["Movement: gain +2 Balance"]
effects:
  - {kind: gain, resource: balance, amount: 2, when: {moved: advance, entered_close: true}}
  - {kind: attack_bonus, amount: 1, per: opponent_momentum, max: 3, when: {range: [close, sword]}}
evade: {resource: either, amount: opponent_momentum, gain: {momentum: 1}, free_when: {balance_at_least: 2}}
""",
    Board: """
id: tiny
name: Tiny
token_diameter_mm: 20
min_gap_mm: 2.5
nodes:
  a1: {x: 10, y: 20.5, role: goal, side: A}
  b1: {x: 30, y: -5, role: entry, side: B}
  m: {x: 0.0, y: 0}
routes: [[a1, m], [m, b1]]
""",
}
SWORD_KINDS = tuple(typing.get_args(model.model_fields["kind"].annotation)[0] for model in vars(sword_model).values()
                    if isinstance(model, type) and issubclass(model, BaseModel) and "kind" in model.model_fields)
TAGS = (*MODULE_EFFECT_KINDS, *SUBROUTINE_EFFECT_KINDS, *BOARD_EFFECT_KINDS, *SWORD_KINDS)


@pytest.mark.parametrize("model", list(BASES), ids=lambda model: model.__name__)
def test_hostile_variants_are_left_to_pydantic_or_read_alike(model: type[BaseModel]) -> None:
    base = yaml.safe_load(BASES[model])
    assert agree(model, base) is not None  # the well-formed base is read plainly
    accepted = refused = 0
    for variant in _mutations(base, TAGS):
        if agree(model, variant) is None:
            refused += 1
        else:
            accepted += 1
    assert accepted > 20  # both ways were exercised
    assert refused > 200


def test_a_theme_and_its_after_validator() -> None:
    """Theme's own check (a model validator) runs on the plain path too: a broken theme is pydantic's."""
    data = _plain(load_yaml_file(THEMES_DIR / "duel-protocol.yaml").data)
    assert agree(Theme, data) is not None
    assert agree(Theme, {**data, "status_variant": "nope"}) is None
    assert agree(Theme, {**data, "statuses": {}}) is None
    for variant in _mutations(data["terms"], ()):
        agree(Terms, variant)


def _validate_output(capsys: pytest.CaptureFixture[str], *args: str) -> list[tuple[int, str, str]]:
    outputs = []
    for enabled in (True, False):
        plain_check.ENABLED = enabled
        try:
            for form in ("text", "json"):
                code = main(["validate", *args, "--format", form])
                captured = capsys.readouterr()
                outputs.append((code, captured.out, captured.err))
        finally:
            plain_check.ENABLED = True
    return outputs


def _hostile_project(starter: Path, folder: Path) -> Path:
    """The starter with every error case file placed, and many hostile units beside them."""
    project = folder / "hostile"
    shutil.copytree(starter, project)
    base = yaml.safe_load(BASES[Unit])
    for index, variant in enumerate(_mutations(base, TAGS)):
        if index % 37 == 0 and isinstance(variant, dict):
            variant = {**variant, "id": f"v-{index}"} if index % 74 else variant
            (project / "unit_data" / f"v{index}.yaml").write_text(
                yaml.safe_dump(variant, allow_unicode=True), encoding="utf-8", errors="surrogatepass")
    for case in sorted(CASES.glob("*.yaml")):
        text = case.read_text(encoding="utf-8")
        place = next(line.split()[-1] for line in text.splitlines() if line.startswith("# place:"))
        if not place.startswith("techniques/") and place != "duelkit.yaml":
            target = project / place.replace("case", f"case-{case.stem}")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    return project


def test_validate_prints_the_same_with_and_without_plain_checks(
        capsys: pytest.CaptureFixture[str], starter: Path, imported: Path, tmp_path: Path) -> None:
    hostile = _hostile_project(starter, tmp_path)
    for args in ((), (str(starter),), (str(imported),), (str(hostile),)):
        text, json_out, slow_text, slow_json = _validate_output(capsys, *args)
        assert (text, json_out) == (slow_text, slow_json), f"validate {' '.join(args)} differs without them"
    code, out, _ = text
    assert code == 1
    assert all(f"error[{c}]" in out for c in ("S001", "S002", "S003", "S004", "Y012"))  # hostile units reported


@pytest.mark.parametrize("bundled", [False, True], ids=["starter", "bundled"])
def test_validating_valid_data_builds_no_pydantic_validator(starter: Path, tmp_path: Path, bundled: bool) -> None:
    """Building the validators was a third of a starter `validate` (issue 28): valid data needs none, so
    nothing on the path may dump or validate a model through pydantic (a dump builds its serializer). The
    bundled data holds all three games (sword-duel's techniques too)."""
    code = ("import sys\nfrom toolkit.cli import main\nfrom pydantic import BaseModel\n"
            "assert main(['validate', *sys.argv[1:]]) == 0\n"
            "def below(cls):\n    for sub in cls.__subclasses__():\n        yield sub\n        yield from below(sub)\n"
            "print(sorted(c.__name__ for c in below(BaseModel) if c.__pydantic_complete__), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code, *([] if bundled else [str(starter)])], capture_output=True,
                            text=True, check=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.stderr.strip().splitlines()[-1] == "[]"
