"""Hostile input met by the commands (issue 21, item 3): whole numbers, text read without a bound, control
characters in arguments and at the prompt. Each case ends in a located message and a non-zero exit, never
exit 70, and stays small in time and memory."""

from __future__ import annotations

import io
import json
import sys
import tracemalloc
from pathlib import Path

import pytest

from toolkit.cli import main
from toolkit.terminal import terminal_safe
from toolkit.whole_numbers import MAX_DIGITS, NumberError, is_whole, read_whole

HUGE = "9" * 5000  # over Python's 4,300-digit limit for int()
SQUADS = ["hydro-conductor", "malfunction-cascade"]


# --- whole numbers: one bounded reader -------------------------------------------------------------------

@pytest.mark.parametrize(("text", "message"), [
    (HUGE, "has 5,000 digits; a whole number has at most 15"),
    ("²", "is not a whole number"),  # str.isdigit() says yes, int() says no
    ("٣", "is not a whole number"),  # int() would read it as 3: every number is written 0-9
    ("", "is not a whole number"),
    ("-3", "is not a whole number"),
], ids=["5000-digits", "superscript-two", "arabic-indic-three", "empty", "negative"])
def test_whole_numbers_are_ascii_digits_and_bounded(text: str, message: str) -> None:
    assert not is_whole(text)
    with pytest.raises(NumberError, match=message):
        read_whole(text)
    assert read_whole("9" * MAX_DIGITS) == 10 ** MAX_DIGITS - 1


class _Stdin(io.StringIO):
    """Typed lines; `readline()` without a size is refused, as a bounded reader never asks for one."""

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        assert size is not None, "a line was read without a bound"
        assert size >= 0, "a line was read without a bound"
        return super().readline(size)


def _play_typing(monkeypatch, capsys, typed: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", _Stdin(typed))
    code = main(["play", *SQUADS, "--players", "human,random", "--seed", "1"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_play_prompt_answers_bad_numbers_with_the_line_they_were_on(monkeypatch, capsys) -> None:
    code, out, err = _play_typing(monkeypatch, capsys, f"{HUGE}\n²\n٣\n0\n12345678901234567890\nq\n")
    assert code == 1  # the person quit: not an internal error
    assert "internal error" not in err
    assert "input line 1 is longer than 200 characters" in out
    assert "input line 2: '²' is not a number (write it with the digits 0-9)" in out
    assert "input line 3: '٣' is not a number" in out
    assert "input line 4: '0' is not a number from 1 to" in out
    assert "input line 5: '12345678901234567890' has 20 digits; a number has at most 15" in out
    assert "stopped by the player" in err


def test_play_prompt_reads_a_huge_line_in_bounded_pieces(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin("7" * 20_000_000 + "\nq\n"))
    tracemalloc.start()
    try:
        code = main(["play", *SQUADS, "--players", "human,random", "--seed", "1"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 1
    assert "input line 1 is longer than 200 characters" in capsys.readouterr().out
    assert peak < 20_000_000  # the 20 MB line is never held whole (the game itself takes a few MB)


def test_a_raw_c1_byte_typed_at_the_prompt_is_echoed_escaped(monkeypatch, capsys) -> None:
    # stdin decodes a byte that is not UTF-8 (here 0x9b, CSI) to a lone surrogate (surrogateescape); printed
    # back as it was, it would reach the terminal as the raw byte
    code, out, _ = _play_typing(monkeypatch, capsys, "\udc9b31m\nq\n")
    assert code == 1
    assert "\udc9b" not in out
    assert "\\udc9b31m" in out
    assert terminal_safe("a\udc9bb") == "a\\udc9bb"


@pytest.mark.parametrize(("value", "message"), [
    (HUGE, "--rules turn_limit: '99999999999999999999'... (5,000 characters) has 5,000 digits"),
    ("²", "--rules turn_limit: '²' is not a whole number"),
], ids=["5000-digits", "superscript-two"])
def test_rules_switch_with_a_bad_whole_number_is_a_usage_error(capsys, value: str, message: str) -> None:
    assert main(["simulate", *SQUADS, "--games", "2", "--seed", "1", "--rules", f"turn_limit={value}"]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "internal error" not in err


def test_numbered_sheet_header_with_a_huge_number_names_its_column(tmp_path: Path, capsys) -> None:
    sheet = tmp_path / "units.csv"
    sheet.write_text("Name,MP,Rarity,Type,Special Ability,Move 1,Size 1,Color 1,Effect 1,Damage 1,"
                     f"Move {HUGE},Size 2,Color 2,Effect 2,Damage 2\n"
                     "Tauros,2,C,Normal,None,Tackle,88,White,,30,Miss,8,Red,,\n", encoding="utf-8")
    assert main(["import", str(sheet), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "the header (line 1), column 11 ('Move 9999999999999999999999999'... (5,005 characters))" in err
    assert "a segment number has at most 15" in err
    assert not (tmp_path / "out").exists()


def test_sheet_cells_with_huge_or_foreign_digits_skip_their_figure(tmp_path: Path, capsys) -> None:
    sheet = tmp_path / "units.csv"
    sheet.write_text("Name,MP,Rarity,Type,Special Ability,Move 1,Size 1,Color 1,Effect 1,Damage 1\n"
                     f"Tauros,{HUGE},C,Normal,None,Tackle,٩٦,White,,{HUGE}x\n", encoding="utf-8")
    assert main(["import", str(sheet), "--out", str(tmp_path / "out")]) == 1  # figures were skipped
    captured = capsys.readouterr()
    assert "skipped 1 figure " in captured.out
    skipped = (tmp_path / "out" / "skipped.csv").read_text(encoding="utf-8")
    assert "MP must be a whole number" in skipped
    assert "size must be a whole number" in skipped


# --- game records: bounded lines, parsed one at a time ----------------------------------------------------

@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> str:
    record = tmp_path_factory.mktemp("record") / "game.jsonl"
    assert main(["play", *SQUADS, "--players", "random,random", "--seed", "2", "--record", str(record)]) == 0
    return record.read_text(encoding="utf-8")


def test_a_record_header_line_of_megabytes_is_refused_by_its_length(tmp_path: Path, capsys) -> None:
    record = tmp_path / "game.jsonl"
    record.write_text('{"squads": ["a", "b"], "x": [' + "{}, " * 3_000_000 + "{}]}\n", encoding="utf-8")
    assert main(["replay", str(record)]) == 1
    err = capsys.readouterr().err
    assert "game.jsonl: line 1: longer than 100,000 characters" in err


def test_a_record_of_millions_of_lines_is_read_one_line_at_a_time(tmp_path: Path, capsys, recorded: str) -> None:
    record = tmp_path / "game.jsonl"
    record.write_text(recorded.split("\n", 1)[0] + "\n" + "{}\n" * 1_000_000, encoding="utf-8")
    tracemalloc.start()
    try:
        code = main(["replay", str(record)])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 1
    assert "game.jsonl:2: the record diverges" in capsys.readouterr().err
    assert peak < 60_000_000  # a million lines parsed and held at once took over 180 MB


def test_record_fields_with_huge_numbers_are_located(tmp_path: Path, capsys, recorded: str) -> None:
    lines = recorded.splitlines()
    index = next(i for i, line in enumerate(lines) if '"spin"' in line)
    row = json.loads(lines[index])
    lines[index] = json.dumps(row).replace(f'"segment": {row["spin"]["segment"]}', '"segment": ' + "9" * 4000)
    record = tmp_path / "game.jsonl"
    record.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(record)]) == 1
    err = capsys.readouterr().err
    assert f"game.jsonl:{index + 1}: the record diverges: segment 9999999999999999999… is not an outcome" in err
    assert len(err) < 1000  # the 4,000 digits are not printed


# --- control characters in arguments --------------------------------------------------------------------

@pytest.mark.parametrize("url", [
    "https://example.org/\x1b]0;owned\x07", "https://example.org/\x07", "https://example.org/\n",
    "https://example.org/a\rb", "https://example.org/a\x9bb", "https://example.org/a\u202eb",
    "https://example.org/a\udc9bb",
], ids=["esc", "bel", "trailing-newline", "cr", "c1", "bidi", "raw-byte"])
def test_base_url_refuses_control_characters(tmp_path: Path, capsys, url: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["export", "tts", "--base-url", url, "--out", str(tmp_path / "tts")])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--base-url" in err
    assert "\x1b" not in err
    assert "\x07" not in err
    assert not (tmp_path / "tts").exists()
