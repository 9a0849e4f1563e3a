"""`duelkit export tts`: deck sheets whose cell of each CardID shows that card, and a saved object with
every key Tabletop Simulator needs."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from toolkit.cli import main
from toolkit.export.bleed import with_bleed
from toolkit.export.pieces import KIT_BLEED, Card, Deck, ExportSet
from toolkit.export.raster import rasterise
from toolkit.export.tts import MAX_SIDE, sheet_dpi, sheets_of, tts_files
from toolkit.render.scene import Page

DPI = 30
SAVE_KEYS = {"SaveName", "Date", "VersionNumber", "GameMode", "Table", "Sky", "Note", "Rules", "XmlUI",
             "LuaScript", "LuaScriptState", "ObjectStates", "TabStates"}
OBJECT_KEYS = {"GUID", "Name", "Transform", "Nickname", "Description", "ColorDiffuse", "Locked", "Grid", "Snap",
               "Autoraise", "Sticky", "Tooltip", "LuaScript", "LuaScriptState", "XmlUI"}
TRANSFORM_KEYS = {"posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ"}
CUSTOM_DECK_KEYS = {"FaceURL", "BackURL", "NumWidth", "NumHeight", "BackIsHidden", "UniqueBack"}
IMAGE_KEYS = {"ImageURL", "ImageSecondaryURL", "ImageScalar", "WidthScale"}


def _url(name: str) -> str:
    return f"https://example.invalid/kit/{name}"


@pytest.fixture(scope="module")
def figure_tts(export_sets: dict[str, ExportSet]) -> tuple[ExportSet, dict[str, bytes]]:
    export = export_sets["duel-protocol"]
    return export, tts_files(export, "Duel", "duel-protocol", DPI, _url).files


def _image(files: dict[str, bytes], url: str) -> Image.Image:
    return Image.open(io.BytesIO(files[url.rsplit("/", 1)[-1]])).convert("RGB")


def _check_object(obj: dict) -> None:
    assert set(obj) >= OBJECT_KEYS, OBJECT_KEYS - set(obj)
    assert set(obj["Transform"]) >= TRANSFORM_KEYS
    assert len(obj["GUID"]) == 6
    assert int(obj["GUID"], 16) >= 0


def test_the_saved_object_has_every_key_tts_needs(figure_tts) -> None:
    export, files = figure_tts
    save = json.loads(files["duel-protocol.json"])
    assert set(save) >= SAVE_KEYS
    objects = save["ObjectStates"]
    for obj in objects:
        _check_object(obj)
    decks = [o for o in objects if o["Name"] == "DeckCustom"]
    assert len(decks) == len(export.decks)
    for deck in decks:
        assert set(deck) >= {"DeckIDs", "CustomDeck", "ContainedObjects"}
        assert deck["DeckIDs"] == [card["CardID"] for card in deck["ContainedObjects"]]
        for key, entry in deck["CustomDeck"].items():
            assert set(entry) >= CUSTOM_DECK_KEYS
            assert key.isdigit()
            assert entry["FaceURL"].startswith("https://example.invalid/kit/deck-")
            assert 1 <= entry["NumWidth"] <= 10
            assert 1 <= entry["NumHeight"] <= 7
        for card in deck["ContainedObjects"]:
            _check_object(card)
            assert card["Name"] == "Card"
            assert str(card["CardID"] // 100) in card["CustomDeck"]
    boards = [o for o in objects if o["Name"] == "Custom_Board"]
    assert len(boards) == 1
    assert set(boards[0]["CustomImage"]) >= IMAGE_KEYS
    tokens = [o for o in objects if o["Name"] == "Custom_Token"]
    units = [p for p in export.pieces if p.slug.startswith("token-")]
    assert {t["CustomImage"]["ImageURL"] for t in tokens} >= {_url(f"{p.slug}.png") for p in units}
    assert all({"Thickness", "MergeDistancePixels", "Stackable"} <= set(t["CustomImage"]["CustomToken"])
               for t in tokens)
    assert len(set(o["GUID"] for o in objects)) == len(objects)


def test_each_card_id_shows_its_card(figure_tts) -> None:
    """Crop the cell of every CardID out of its sheet and compare it with that card drawn on its own."""
    export, files = figure_tts
    save = json.loads(files["duel-protocol.json"])
    by_slug = {card.slug: (deck, card) for deck in export.decks for card in deck.cards}
    checked = 0
    for obj in (o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"):
        for entry_card in obj["ContainedObjects"]:
            deck, card = next(by_slug[s] for s in by_slug if by_slug[s][1].title == entry_card["Nickname"]
                              and by_slug[s][0].name == obj["Nickname"])
            entry = entry_card["CustomDeck"][str(entry_card["CardID"] // 100)]
            sheet = _image(files, entry["FaceURL"])
            dpi = sheet_dpi(deck, sheets_of(deck), DPI)
            alone = next(rasterise([with_bleed(card.page, KIT_BLEED, 0.0)], dpi))
            cell = entry_card["CardID"] % 100
            row, col = divmod(cell, entry["NumWidth"])
            w, h = alone.size
            assert sheet.size == (entry["NumWidth"] * w, entry["NumHeight"] * h)
            crop = sheet.crop((col * w, row * h, col * w + w, row * h + h))
            assert ImageChops.difference(crop, alone).getbbox() is None, card.slug
            checked += 1
    assert checked == sum(len(deck.cards) for deck in export.decks)


def test_the_last_cell_is_the_hidden_face(figure_tts) -> None:
    export, files = figure_tts
    deck = export.decks[0]
    (sheet,) = sheets_of(deck)
    image = _image(files, f"deck-{deck.name}.png")
    back = _image(files, f"{deck.back.slug}.png")
    w, h = back.size
    row, col = divmod(sheet.hidden_cell, sheet.cols)
    assert ImageChops.difference(image.crop((col * w, row * h, col * w + w, row * h + h)), back).getbbox() is None


def _deck(count: int, width: float = 63.5, height: float = 88.9) -> Deck:
    page = Page(width + 2 * KIT_BLEED, height + 2 * KIT_BLEED)
    return Deck("test", tuple(Card(f"test-{i}", str(i), page) for i in range(count)), Card("back-test", "b", page))


@pytest.mark.parametrize("count", [1, 9, 69, 70, 150])
def test_sheets_hold_at_most_10_by_7_with_room_for_the_hidden_face(count: int) -> None:
    sheets = sheets_of(_deck(count))
    assert sum(len(sheet.cards) for sheet in sheets) == count
    for sheet in sheets:
        assert sheet.cols <= 10
        assert sheet.rows <= 7
        assert len(sheet.cards) < sheet.hidden_cell + 1


@pytest.mark.parametrize(("count", "size"), [(69, (63.5, 88.9)), (20, (70.0, 120.0)), (3, (63.5, 88.9))])
def test_sheets_stay_within_4096_pixels(count: int, size: tuple[float, float]) -> None:
    deck = _deck(count, *size)
    sheets = sheets_of(deck)
    dpi = sheet_dpi(deck, sheets, 300)
    for sheet in sheets:
        assert sheet.cols * math.ceil(size[0] / 25.4 * dpi) <= MAX_SIDE
        assert sheet.rows * math.ceil(size[1] / 25.4 * dpi) <= MAX_SIDE


def test_a_deck_too_big_for_4096_px_is_drawn_at_a_lower_dpi_and_says_so(export_sets: dict[str, ExportSet]) -> None:
    decks = [d for d in export_sets["sword-duel"].decks if d.name in ("technique", "action-a")]
    result = tts_files(ExportSet(decks=decks), "t", "t", 400, _url)
    # ten techniques and the hidden face: 4 x 3 cells, three 88.9 mm cards high in 4096 px
    assert result.notes == ["deck 'technique' drawn at 389 DPI (not 400) so its sheet stays within 4096 px a side"]
    with Image.open(io.BytesIO(result.files["deck-technique.png"])) as sheet:
        assert max(sheet.size) <= MAX_SIDE
        assert max(sheet.size) > MAX_SIDE - 50


def test_the_command_uses_file_uris(capsys, tmp_path: Path) -> None:
    out = tmp_path / "tts"
    assert main(["export", "tts", "--game", "sword-duel", "--out", str(out), "--dpi", "30"]) == 0
    assert "sword-duel.json" in capsys.readouterr().out
    save = json.loads((out / "sword-duel" / "sword-duel.json").read_text())
    decks = [o for o in save["ObjectStates"] if o["Name"] == "DeckCustom"]
    assert {d["Nickname"] for d in decks} == {"action-a", "action-b", "technique", "role"}
    face = next(iter(decks[0]["CustomDeck"].values()))["FaceURL"]
    assert face == (out / "sword-duel" / "deck-action-a.png").resolve().as_uri()
    for deck in decks:
        for entry in deck["CustomDeck"].values():
            with Image.open(out / "sword-duel" / entry["FaceURL"].rsplit("/", 1)[1]) as sheet:
                assert max(sheet.size) <= MAX_SIDE


def test_base_url_must_be_an_address(capsys, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["export", "tts", "--game", "sword-duel", "--out", str(tmp_path), "--base-url", "my images"])
    assert stop.value.code == 2
    assert "--base-url" in capsys.readouterr().err
