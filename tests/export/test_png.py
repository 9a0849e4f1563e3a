"""`duelkit export png`: names, sizes, bleed, DPI and sRGB recorded, identical bytes for identical input."""

from __future__ import annotations

import io
import math
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from toolkit.cli import main
from toolkit.cli.export import bleed_mm
from toolkit.export.pieces import ExportSet
from toolkit.export.png import png_files
from toolkit.output import MARK_FILE

DPI = 40


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    found, at = [], 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at:at + 4])
        kind, data = png[at + 4:at + 8], png[at + 8:at + 8 + length]
        assert struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0] == zlib.crc32(kind + data)
        found.append((kind, data))
        at += 12 + length
    return found


@pytest.fixture(scope="module")
def sword_pngs(export_sets: dict[str, ExportSet]) -> dict[str, bytes]:
    return png_files(export_sets["sword-duel"], DPI, 3.0)


def test_every_card_back_and_piece_of_sword_duel_is_a_png(sword_pngs: dict[str, bytes]) -> None:
    names = set(sword_pngs)
    assert {f"action-{side}-{key}.png" for side in "ab"
            for key in ("attack", "defend", "advance", "retreat", "insight")} <= names
    assert {"back-action-a.png", "back-action-b.png", "back-technique.png", "back-role.png"} <= names
    assert {"role-challenger.png", "role-defender.png", "mat-a.png", "mat-b.png"} <= names
    assert len([n for n in names if n.startswith("technique-")]) == 10
    assert {"token-initiative-a-7.png", "token-evade.png", "token-range-apart.png", "token-position.png"} <= names


def test_cards_carry_their_bleed_at_the_dpi(export_sets: dict[str, ExportSet], sword_pngs: dict[str, bytes]) -> None:
    deck = export_sets["sword-duel"].decks[0]
    image = Image.open(io.BytesIO(sword_pngs[f"{deck.cards[0].slug}.png"]))
    assert image.mode == "RGB"
    assert image.size == (math.ceil((deck.width + 6) / 25.4 * DPI), math.ceil((deck.height + 6) / 25.4 * DPI))


def test_dpi_and_srgb_are_recorded_and_nothing_that_varies(sword_pngs: dict[str, bytes]) -> None:
    kinds = dict(chunks(sword_pngs["technique-irimi.png"]))
    x, y, unit = struct.unpack(">IIB", kinds[b"pHYs"])
    assert unit == 1
    assert x == y == round(DPI / 0.0254)
    assert kinds[b"sRGB"] == b"\x00"
    assert not {b"tIME", b"tEXt", b"zTXt", b"iTXt"} & set(kinds)


def test_identical_input_gives_identical_bytes(export_sets: dict[str, ExportSet],
                                               sword_pngs: dict[str, bytes]) -> None:
    assert png_files(export_sets["sword-duel"], DPI, 3.0) == sword_pngs


def test_round_tokens_are_transparent_outside_the_disc(sword_pngs: dict[str, bytes]) -> None:
    token = Image.open(io.BytesIO(sword_pngs["token-initiative-b-3.png"]))
    assert token.mode == "RGBA"
    assert token.getpixel((0, 0))[3] == 0
    assert token.getpixel((token.width // 2, token.height // 2))[3] == 255


def test_a_wider_bleed_continues_the_card_background(export_sets: dict[str, ExportSet]) -> None:
    """1/8 in is wider than the 3 mm the art is drawn with: the edge is mirrored outwards, so the outermost
    pixels show the card's background, not white paper."""
    one = ExportSet(decks=export_sets["duel-protocol"].decks[:1])
    dpi = 100
    wide = png_files(one, dpi, bleed_mm("0.25in"))
    narrow = png_files(one, dpi, 3.0)
    name = f"{one.decks[0].cards[0].slug}.png"
    outer = Image.open(io.BytesIO(wide[name])).convert("RGB")
    inner = Image.open(io.BytesIO(narrow[name])).convert("RGB")
    assert outer.width - inner.width == pytest.approx(2 * (6.35 - 3) / 25.4 * dpi, abs=2)
    background = inner.getpixel((1, inner.height // 2))
    for point in ((0, 0), (outer.width - 1, outer.height - 1), (0, outer.height // 2), (outer.width // 2, 0)):
        assert outer.getpixel(point) == background
    assert background != (255, 255, 255)


@pytest.mark.parametrize(("text", "mm"), [("3", 3.0), ("3mm", 3.0), ("0.125in", 3.175), ("0", 0.0), (".5 mm", 0.5)])
def test_bleed_in_millimetres_or_inches(text: str, mm: float) -> None:
    assert bleed_mm(text) == pytest.approx(mm)


@pytest.mark.parametrize("bleed", ["1in", "3cm", "-1", "wide"])
def test_a_bad_bleed_is_a_usage_error(capsys, tmp_path: Path, bleed: str) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["export", "png", "--game", "sword-duel", "--out", str(tmp_path / "out"), "--bleed", bleed])
    assert stop.value.code == 2
    assert "--bleed" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_command_writes_a_marked_folder_per_game(capsys, tmp_path: Path) -> None:
    out = tmp_path / "images"
    assert main(["export", "png", "--game", "sword-duel", "--out", str(out), "--dpi", "20"]) == 0
    folder = out / "sword-duel"
    assert (folder / MARK_FILE).is_file()
    assert (folder / "back-role.png").is_file()
    assert "sword-duel: wrote" in capsys.readouterr().out
    (folder / "notes.txt").write_text("mine")
    assert main(["export", "png", "--game", "sword-duel", "--out", str(out), "--dpi", "20"]) == 1
    assert "notes.txt" in capsys.readouterr().err
    assert (folder / "notes.txt").read_text() == "mine"


def test_formats_not_written_yet_are_refused(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["export", "ods"])
    assert stop.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
