"""Untrusted text never reaches the terminal raw (issue 12, item 8).

Names, file names and quoted source lines with ESC, BEL, CSI and the like are shown escaped by every
command; control characters in names and text are located errors (Y012); a bare value is located.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.problems import Problem, Severity
from toolkit.report import format_text
from toolkit.terminal import SafeText, terminal_safe

# Anything a terminal would act on, except the line break our own output uses.
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
ESC_NAME_UNIT = (
    'id: evil\nname: "Evil \\e]0;pwned\\a \\e[2J"\nclass: R\nmp: 2\n'
    'disk:\n  - {move: "Jab\\x9b31m", color: white, size: 96, damage: 10}\n'
)


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def assert_no_raw_control(*texts: str) -> None:
    for text in texts:
        found = RAW_CONTROL.findall(text)
        assert not found, f"raw control characters reached the terminal: {found!r}"


@pytest.mark.parametrize(("raw", "shown"), [
    ("a\x1b[31mb", "a\\x1b[31mb"), ("bell\x07", "bell\\x07"), ("csi\x9b2J", "csi\\u009b2J"),
    ("nul\x00", "nul\\x00"), ("cr\rover", "cr\\x0dover"), ("tab\tx", "tab\\x09x"), ("del\x7f", "del\\u007f"),
    ("rtl\u202eevil", "rtl\\u202eevil"), ("two\nlines", "two\nlines"), ("Café ☆ ♂", "Café ☆ ♂"),
])
def test_terminal_filter_escapes_controls_and_keeps_text(raw: str, shown: str) -> None:
    assert terminal_safe(raw) == shown


def test_filtered_json_stays_valid_and_means_the_same() -> None:
    data = {"name": "Evil \x1b[2J \x9b \x7f \u202e x"}
    shown = terminal_safe(json.dumps(data, ensure_ascii=False))
    assert_no_raw_control(shown)
    assert json.loads(shown) == data


def test_a_report_is_safe_piece_by_piece_as_the_whole_filter_made_it() -> None:
    """`validate` prints the report without a second pass (issue 28): each piece from a file is escaped when
    the report is written, giving the bytes the whole-text filter gave, the caret still under its character."""
    hostile = Problem("S004", Severity.ERROR, "unit_data/raw\x1b[32m.yaml", 3, 12, "name 'Evil \x1b]0;t\x07' \u202e",
                      hint="write \x9b2J as text", expected="one\tline", found="\udc9b",
                      source_line="name:\t'\x1b[2J' \x7f x")
    plain = Problem("N001", Severity.WARNING, "unit_data/ok.yaml", 2, 3, "Café ☆", hint="a hint",
                    source_line="a: b")
    text = format_text([hostile, plain, hostile])
    assert isinstance(text, SafeText)
    assert terminal_safe(str(text)) == text  # the filter would change nothing
    assert_no_raw_control(text)
    # the tab shown as a space, the caret under the quote after the escaped ESC (column 12: 14 wide)
    assert "3 | name: '\\x1b[2J' \\u007f x\n  | " + " " * 14 + "^" in text
    assert "--> unit_data/raw\\x1b[32m.yaml:3:12" in text
    assert "= expected one\\x09line, found \\udc9b" in text
    assert terminal_safe(text + "\n") == text + "\n"  # joined with plain text: filtered again, same bytes


def test_validate_text_escapes_names_file_names_and_quoted_lines(capsys, base_project: Path) -> None:
    units = base_project / "unit_data"
    (units / "evil.yaml").write_text(ESC_NAME_UNIT, encoding="utf-8")
    (units / "raw\x1b[32m.yaml").write_text("id: raw\nname: Raw \x1b[31m red\n", encoding="utf-8")
    code, out, err = run(capsys, "validate", str(base_project))
    assert code == 1
    assert_no_raw_control(out, err)
    assert "raw\\x1b[32m.yaml:2:11" in out
    # the quoted line is escaped and the caret still points at the ESC
    quoted = next(line for line in out.splitlines() if line.startswith("2 | name: Raw"))
    caret = out.splitlines()[out.splitlines().index(quoted) + 1]
    assert quoted == "2 | name: Raw \\x1b[31m red"
    assert caret.index("^") == quoted.index("\\x1b")


def test_control_characters_in_names_and_text_are_located_errors(capsys, base_project: Path) -> None:
    (base_project / "unit_data" / "evil.yaml").write_text(ESC_NAME_UNIT, encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(base_project), "--format", "json")
    assert code == 1
    assert_no_raw_control(out)
    found = {(p["code"], p["line"], p["column"]) for p in json.loads(out) if p["file"].endswith("evil.yaml")}
    assert found == {("Y012", 2, 7), ("Y012", 6, 12)}


@pytest.mark.parametrize("value", ['"a\\0b"', '"two\\nlines"', '"tab\\there"', '"bell\\a"', '"nel\\N"'])
def test_each_kind_of_control_character_in_a_name_is_y012(capsys, base_project: Path, value: str) -> None:
    (base_project / "unit_data" / "case.yaml").write_text(
        f"id: case\nname: {value}\nclass: R\nmp: 2\ndisk:\n  - {{move: Jab, color: white, size: 96, damage: 10}}\n",
        encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(base_project), "--format", "json")
    assert code == 1
    assert [(p["code"], p["line"]) for p in json.loads(out)] == [("Y012", 2)]


def test_line_breaks_are_paragraphs_in_long_text_but_errors_in_names(capsys, base_project: Path) -> None:
    modules = base_project / "modules"
    (modules / "long.yaml").write_text(
        "id: long-text\nname: Long Text\ntext: |\n  First paragraph.\n  Second line.\n"
        "effect: {kind: respin}\n", encoding="utf-8")
    (modules / "quoted.yaml").write_text(
        'id: quoted\nname: Quoted\ntext: "One.\\nTwo."\neffect: {kind: respin}\n', encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(base_project), "--format", "json")
    assert (code, json.loads(out)) == (0, [])
    (modules / "named.yaml").write_text(
        "id: named\nname: |\n  Two\n  Lines\ntext: Fine.\neffect: {kind: respin}\n", encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(base_project), "--format", "json")
    assert code == 1
    assert [(p["code"], p["file"].rsplit("/", 1)[-1], p["line"]) for p in json.loads(out)] == [
        ("Y012", "named.yaml", 2)]


@pytest.mark.parametrize(("text", "line"), [("hello\n", 1), ("# a comment\n\n  42\n", 3)])
def test_a_bare_value_is_reported_at_its_line(capsys, base_project: Path, text: str, line: int) -> None:
    (base_project / "unit_data" / "bare.yaml").write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "validate", str(base_project), "--format", "json")
    assert code == 1
    assert [(p["code"], p["line"], p["column"]) for p in json.loads(out)] == [("S005", line, 1 + 2 * (line == 3))]


def test_odds_prints_names_escaped(capsys, base_project: Path) -> None:
    (base_project / "unit_data" / "evil.yaml").write_text(
        ESC_NAME_UNIT.replace('"Jab\\x9b31m"', "Jab"), encoding="utf-8")
    code, out, err = run(capsys, "odds", "evil", "alpha", "--data", str(base_project))
    assert code == 0, err
    assert_no_raw_control(out, err)
    assert "Evil \\x1b]0;pwned\\x07 \\x1b[2J (evil) attacks" in out
    code, out, err = run(capsys, "odds", "evil", "alpha", "--data", str(base_project), "--json")
    assert_no_raw_control(out, err)
    assert json.loads(out)["attacker"]


def test_import_messages_escape_names_and_file_names(capsys, tmp_path: Path) -> None:
    csv = tmp_path / "figs\x1b[31m.csv"
    csv.write_text(
        "Name,Movement,Rarity,Type,Special Ability,Attack Wheel Size,Attack Name,Attack Type,Attack Value,"
        "Attack Ability\nBad\x1b]0;x\x07Name,2,C,Normal,None,??,Tackle,White,30,\n", encoding="utf-8")
    code, out, err = run(capsys, "import", str(csv), "--out", str(tmp_path / "proj"))
    assert code == 1  # the figure was skipped
    assert_no_raw_control(out, err)
    assert "figs\\x1b[31m.csv:2: skipped 'Bad\\x1b]0;x\\x07Name'" in err


def test_board_check_escapes_file_names_and_locates_control_text(capsys, tmp_path: Path) -> None:
    from toolkit.paths import DEFAULT_BOARD

    board = tmp_path / "board\x07.yaml"
    text = DEFAULT_BOARD.read_text(encoding="utf-8")
    board.write_text(text.replace("name: Standard engagement grid", 'name: "Grid \\e[5m"'), encoding="utf-8")
    code, out, err = run(capsys, "board", "check", str(board))
    assert code == 1
    assert_no_raw_control(out, err)
    assert "board\\x07.yaml:" in out
    assert "Y012" in out


def test_usage_errors_echo_arguments_escaped(capsys) -> None:
    code, out, err = run(capsys, "odds", "a\x1b[2J", "b", "--data", "/nonexistent\x1b[31m")
    assert code == 2
    assert_no_raw_control(out, err)
    with pytest.raises(SystemExit):
        main(["validate", "here", "extra\x1b[2J"])  # "unrecognized arguments: ..." echoes it
    captured = capsys.readouterr()
    assert_no_raw_control(captured.out, captured.err)


def test_play_and_replay_echo_hostile_squads_and_records_escaped(capsys, tmp_path: Path) -> None:
    code, out, err = run(capsys, "play", "a\x1b[2J", "b\x07", "--players", "random,random", "--seed", "1")
    assert code == 2
    assert_no_raw_control(out, err)
    assert "a\\x1b[2J" in err
    record = tmp_path / "game\x1b[31m.jsonl"
    record.write_text('{"squads": ["x\\u001b]0;t\\u0007", "y"], "data": null}\n', encoding="utf-8")
    code, out, err = run(capsys, "replay", str(record))
    assert code == 2
    assert_no_raw_control(out, err)
    assert "x\\x1b]0;t\\x07" in err
    record.write_text("not json \x1b[5m\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(record))
    assert code == 1
    assert_no_raw_control(out, err)
    assert "game\\x1b[31m.jsonl: line 1: not JSON" in err


def test_every_line_the_commands_print_passes_the_filter(capsys) -> None:
    """play and replay print the board through `out`; both streams are filtered there."""
    from toolkit.cli.common import err, out

    out("board \x1b[2J row")
    err("note \x9b1m")
    captured = capsys.readouterr()
    assert captured.out == "board \\x1b[2J row\n"
    assert captured.err == "note \\u009b1m\n"


def test_a_huge_bad_number_is_echoed_by_its_start_and_length(capsys) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["simulate", "hydro-conductor", "hydro-conductor", "--games", "9" * 5000])
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert "invalid int value: '9999999999" in err
    assert "(5,000 characters)" in err
    assert len(err.splitlines()[-1]) < 200
