"""Help that teaches: every `--help` has examples and describes every option; the words a command accepts
are listed where it is used; the messages a new designer meets first point at the real fix."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from toolkit import yamlsource
from toolkit.cli import build_parser, main


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...],
                                                                                     argparse.ArgumentParser]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += [((*path, name), sub), *_commands(sub, (*path, name))]
    return found


COMMANDS = _commands(build_parser())


@pytest.mark.parametrize(("path", "parser"), COMMANDS, ids=[" ".join(path) for path, _ in COMMANDS])
def test_every_help_has_an_example_and_describes_every_option(path: tuple[str, ...],
                                                              parser: argparse.ArgumentParser) -> None:
    text = parser.format_help()
    assert "examples:\n  duelkit " + path[0] in text
    for action in parser._actions:
        if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            assert action.help, f"`duelkit {' '.join(path)}` option {action.option_strings or action.dest} has no help"


@pytest.mark.usefixtures("capsys")  # keeps the commands' output out of the test log
def test_help_lists_the_words_each_command_accepts() -> None:
    helps = {path: parser.format_help() for path, parser in COMMANDS}
    assert "paralysis (EMP Static)" in helps[("odds",)]
    assert "burn (Burn)" in helps[("odds",)]
    assert "module effect kinds: respin, damage_bonus" in helps[("validate",)]
    assert "Attack Wheel Size" in helps[("import",)]
    assert "Special Ability" in helps[("import",)]


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_an_unknown_module_effect_kind_names_the_kinds_that_exist(capsys, base_project: Path) -> None:
    module = base_project / "modules" / "x-attack.yaml"
    module.write_text(module.read_text().replace("kind: damage_bonus", "kind: damage_bonuss"))
    code, out = run(capsys, "validate", str(base_project))
    assert code == 1
    assert "effect.kind: unknown kind 'damage_bonuss'; the kinds are: respin, damage_bonus, star_bonus" in out
    assert "hint: did you mean 'damage_bonus'?" in out
    assert "a mapping is not allowed" not in out
    assert "modules/x-attack.yaml:4:16" in out  # at the kind itself


def test_a_module_effect_without_a_kind_says_which_kinds_exist(capsys, base_project: Path) -> None:
    (base_project / "modules" / "x-attack.yaml").write_text(
        "id: x-attack\nname: X Attack\ntext: More damage.\neffect: {amount: 30}\n")
    code, out = run(capsys, "validate", str(base_project))
    assert code == 1
    assert "missing required key 'kind' in effect" in out
    assert "hint: add `kind:`, one of: respin, damage_bonus" in out


def test_one_bad_module_or_unit_is_reported_once_not_by_every_squad_listing_it(capsys, base_project: Path) -> None:
    module = base_project / "modules" / "x-attack.yaml"
    module.write_text(module.read_text().replace("kind: damage_bonus", "kind: damage_bonuss"))
    (base_project / "unit_data" / "alpha.yaml").write_text("id: alpha\nname: Alpha: the First\n")
    (base_project / "unit_data" / "squads" / "second.yaml").write_text(
        "id: second\nunits: [alpha, bravo, charlie, delta, echo, foxtrot]\nmodules: [x-attack, no-such]\n")
    code, out = run(capsys, "validate", str(base_project))
    assert code == 1
    assert "unknown module 'x-attack'" not in out
    assert "unknown unit 'alpha'" not in out
    assert "squad 'second' names unknown module 'no-such'" in out  # a real typo is still caught


@pytest.mark.parametrize("backend", yamlsource.BACKENDS)
def test_a_name_with_an_unquoted_colon_gets_the_hint_to_quote_it(capsys, monkeypatch, base_project: Path,
                                                                 backend: str) -> None:
    monkeypatch.setattr(yamlsource, "BACKEND", backend)
    unit = base_project / "unit_data" / "alpha.yaml"
    unit.write_text(unit.read_text().replace("name: Alpha Scout", "name: Alpha: the First"))
    code, out = run(capsys, "validate", str(base_project))
    assert code == 1
    assert "error[Y002]" in out
    assert 'hint: text with \': \' in it must be quoted: write `name: "Alpha: the First"`' in out
