"""`duelkit export tts`: Tabletop Simulator deck sheets, back, board, mat and token images, and a saved
object (JSON) that spawns them, for the `Saves/Saved Objects` folder.

Deck sheets follow TTS's custom deck format: at most 10 x 7 cells and 4096 px a side (the grid chosen to
give the cards the most pixels), cards left to right and top to bottom, the last cell the face a hidden
card shows (here the deck's back, so a card in a hidden hand looks like its back), and CardID = deck
number x 100 + cell index. Cards are drawn at trim size (no bleed: TTS shows the whole cell).
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from typing import Any

from PIL import Image

from toolkit.export.bleed import with_bleed
from toolkit.export.pieces import KIT_BLEED, Card, Deck, ExportSet, Piece
from toolkit.export.raster import MM_PER_INCH, png_bytes, rasterise

MAX_COLS, MAX_ROWS = 10, 7
MAX_SIDE = 4096  # px: TTS's texture limit
PER_SHEET = MAX_COLS * MAX_ROWS - 1  # the last cell is the hidden face
POKER = (63.5, 88.9)  # mm: a TTS card at scale 1 has poker proportions
TTS_UNIT = MM_PER_INCH  # mm: one TTS unit is about an inch


@dataclass(frozen=True)
class Sheet:
    """One image of a deck: its cards, in cell order, and the grid."""

    cards: tuple[Card, ...]
    cols: int
    rows: int

    @property
    def hidden_cell(self) -> int:
        return self.cols * self.rows - 1


def sheets_of(deck: Deck) -> list[Sheet]:
    """Up to 69 cards a sheet, in the grid (2-10 wide, up to 7 high) that leaves the cards the most
    pixels within MAX_SIDE, and then the fewest empty cells."""
    sheets = []
    for start in range(0, len(deck.cards), PER_SHEET):
        chunk = deck.cards[start:start + PER_SHEET]
        slots = len(chunk) + 1
        grids = [(cols, math.ceil(slots / cols)) for cols in range(2, MAX_COLS + 1)]
        cols, rows = max((grid for grid in grids if grid[1] <= MAX_ROWS),
                         key=lambda g: (min(MAX_SIDE / (g[0] * deck.width), MAX_SIDE / (g[1] * deck.height)),
                                        -g[0] * g[1]))
        sheets.append(Sheet(tuple(chunk), cols, rows))
    return sheets


def sheet_dpi(deck: Deck, sheets: list[Sheet], dpi: int) -> int:
    """The requested DPI, or less when a sheet would exceed MAX_SIDE (pdfium rounds each card up by at
    most one pixel, hence the `- cols`)."""
    cols = max(sheet.cols for sheet in sheets)
    rows = max(sheet.rows for sheet in sheets)
    fit_w = (MAX_SIDE - cols) * MM_PER_INCH / (cols * deck.width)
    fit_h = (MAX_SIDE - rows) * MM_PER_INCH / (rows * deck.height)
    return min(dpi, math.floor(min(fit_w, fit_h)))


def piece_dpi(piece: Piece, dpi: int) -> int:
    longest = max(piece.page.width, piece.page.height)
    return min(dpi, math.floor((MAX_SIDE - 1) * MM_PER_INCH / longest))


@dataclass
class TtsExport:
    files: dict[str, bytes]
    notes: list[str]  # e.g. a sheet drawn at a lower DPI to stay within 4096 px


def tts_files(export: ExportSet, title: str, save_name: str, dpi: int, url_of: Any) -> TtsExport:
    """Images and `<save_name>.json`; `url_of(file_name)` gives the URL TTS loads a file from."""
    files: dict[str, bytes] = {}
    notes: list[str] = []
    objects: list[dict[str, Any]] = []
    deck_number = 0
    for position, deck in enumerate(d for d in export.decks if d.cards):
        sheets = sheets_of(deck)
        used = sheet_dpi(deck, sheets, dpi)
        if used < dpi:
            notes.append(f"deck '{deck.name}' drawn at {used} DPI (not {dpi}) so its sheet stays within "
                         f"{MAX_SIDE} px a side")
        trim = [with_bleed(card.page, KIT_BLEED, 0.0) for card in (*deck.cards, deck.back)]
        images = rasterise(trim, used)
        by_slug = dict(zip([card.slug for card in (*deck.cards, deck.back)], images, strict=True))
        back_name = f"{deck.back.slug}.png"
        files[back_name] = png_bytes(by_slug[deck.back.slug], used)
        custom: dict[str, dict[str, Any]] = {}
        cards: list[dict[str, Any]] = []
        for number, sheet in enumerate(sheets, start=1):
            deck_number += 1
            name = f"deck-{deck.name}.png" if len(sheets) == 1 else f"deck-{deck.name}-{number}.png"
            files[name] = png_bytes(compose(sheet, by_slug, by_slug[deck.back.slug]), used)
            entry = {"FaceURL": url_of(name), "BackURL": url_of(back_name), "NumWidth": sheet.cols,
                     "NumHeight": sheet.rows, "BackIsHidden": False, "UniqueBack": False, "Type": 0}
            custom[str(deck_number)] = entry
            for index, card in enumerate(sheet.cards):
                cards.append(_card(card, deck_number * 100 + index, {str(deck_number): entry}, deck))
        objects.append(_deck(deck, cards, custom, x=position * 4.0 - 10.0, z=-14.0))
    objects += _pieces(export.pieces, dpi, files, notes, url_of)
    save = {"SaveName": title, "GameMode": title, "Date": "", "VersionNumber": "", "Gravity": 0.5,
            "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "",
            "LuaScriptState": "", "TabStates": {}, "ObjectStates": objects}
    files[f"{save_name}.json"] = (json.dumps(save, indent=2, ensure_ascii=True) + "\n").encode("ascii")
    return TtsExport(files, notes)


def compose(sheet: Sheet, images: dict[str, Image.Image], hidden: Image.Image) -> Image.Image:
    """The sheet: card i in cell i (row-major), the hidden face in the last cell, the rest white."""
    cell_w, cell_h = hidden.size
    canvas = Image.new("RGB", (sheet.cols * cell_w, sheet.rows * cell_h), "white")
    for index, card in enumerate(sheet.cards):
        row, col = divmod(index, sheet.cols)
        canvas.paste(images[card.slug], (col * cell_w, row * cell_h))
    row, col = divmod(sheet.hidden_cell, sheet.cols)
    canvas.paste(hidden, (col * cell_w, row * cell_h))
    return canvas


def _piece_images(pieces: list[Piece], dpi: int, notes: list[str]) -> list[tuple[Image.Image, int]]:
    """Each piece's image and DPI; pieces drawn alike share one PDF (fonts converted once)."""
    used = [piece_dpi(piece, dpi) for piece in pieces]
    for piece, value in zip(pieces, used, strict=True):
        if value < dpi:
            notes.append(f"'{piece.slug}' drawn at {value} DPI (not {dpi}) to stay within {MAX_SIDE} px a side")
    images: list[tuple[Image.Image, int] | None] = [None] * len(pieces)
    for key in sorted({(value, piece.round) for piece, value in zip(pieces, used, strict=True)}):
        indexes = [i for i, piece in enumerate(pieces) if (used[i], piece.round) == key]
        drawn = rasterise([pieces[i].page for i in indexes], key[0], transparent=key[1])
        for i, image in zip(indexes, drawn, strict=True):
            images[i] = (image, key[0])
    return [image for image in images if image is not None]


def _pieces(pieces: list[Piece], dpi: int, files: dict[str, bytes], notes: list[str], url_of: Any) -> list[dict]:
    objects: list[dict[str, Any]] = []
    token_x = {"A": -10.0, "B": -10.0, "": -10.0}
    for piece, (image, used) in zip(pieces, _piece_images(pieces, dpi, notes), strict=True):
        name = f"{piece.slug}.png"
        files[name] = png_bytes(image, used)
        if piece.kind in ("board", "mat"):
            z = {"A": 12.0, "B": -26.0}.get(piece.side, 0.0) if piece.kind == "mat" else 0.0
            scale = max(piece.page.width, piece.page.height) / TTS_UNIT / 10
            obj = _object("Custom_Board", piece.slug, piece.title, 0.0, z, (scale, 1.0, scale))
            obj["Locked"] = piece.kind == "board"
            obj["CustomImage"] = {"ImageURL": url_of(name), "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                  "WidthScale": 0.0}
            objects.append(obj)
            continue
        z = {"A": 20.0, "B": 24.0, "": 28.0}[piece.side]
        scale = max(piece.page.width, piece.page.height) / TTS_UNIT
        for copy in range(piece.copies):  # stackable: copies stack where they land
            obj = _object("Custom_Token", f"{piece.slug}#{copy}", piece.title, token_x[piece.side], z,
                          (scale, 1.0, scale), y=1.0 + 0.2 * copy)
            obj["CustomImage"] = {"ImageURL": url_of(name), "ImageSecondaryURL": "", "ImageScalar": 1.0,
                                  "WidthScale": 0.0, "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0,
                                                                     "StandUp": False, "Stackable": True}}
            objects.append(obj)
        token_x[piece.side] += 1.5 * scale
    return objects


def _deck(deck: Deck, cards: list[dict[str, Any]], custom: dict[str, Any], x: float, z: float) -> dict[str, Any]:
    scale = (deck.width / POKER[0], 1.0, deck.height / POKER[1])
    if len(cards) == 1:  # TTS has no one-card deck: a lone card is a CardCustom
        card = dict(cards[0])
        card.update(_object("CardCustom", deck.name, card["Nickname"], x, z, scale, face_down=True))
        return card
    obj = _object("DeckCustom", deck.name, deck.name, x, z, scale, face_down=True)
    obj.update({"SidewaysCard": False, "HideWhenFaceDown": True, "Hands": False,
                "DeckIDs": [card["CardID"] for card in cards], "CustomDeck": custom, "ContainedObjects": cards})
    return obj


def _card(card: Card, card_id: int, custom: dict[str, Any], deck: Deck) -> dict[str, Any]:
    obj = _object("Card", card.slug, card.title, 0.0, 0.0, (deck.width / POKER[0], 1.0, deck.height / POKER[1]))
    obj.update({"CardID": card_id, "SidewaysCard": False, "HideWhenFaceDown": True, "Hands": True,
                "CustomDeck": custom})
    return obj


def _object(name: str, key: str, nickname: str, x: float, z: float, scale: tuple[float, float, float],
            y: float = 1.0, face_down: bool = False) -> dict[str, Any]:
    """The fields every TTS object carries; the GUID is derived from the piece, so exports repeat."""
    return {
        "GUID": hashlib.sha1(f"{name}:{key}".encode()).hexdigest()[:6],
        "Name": name,
        "Transform": {"posX": round(x, 4), "posY": y, "posZ": round(z, 4), "rotX": 0.0,
                      "rotY": 180.0, "rotZ": 180.0 if face_down else 0.0,
                      "scaleX": round(scale[0], 4), "scaleY": scale[1], "scaleZ": round(scale[2], 4)},
        "Nickname": nickname, "Description": "", "GMNotes": "",
        "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0},
        "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False, "Autoraise": True, "Sticky": True,
        "Tooltip": True, "GridProjection": False, "Hands": False,
        "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
    }
