"""The figure duel's pieces for `duelkit export`: schematic and module decks, the board, each side's unit
tokens in its team colour, and the status and Wait markers."""

from __future__ import annotations

from toolkit.export.pieces import ExportSet, Piece, decks_of
from toolkit.figure.kit.board_sheet import build_board
from toolkit.figure.kit.context import KitContext
from toolkit.figure.kit.module_cards import build_modules
from toolkit.figure.kit.schematics import build_schematics
from toolkit.figure.kit.tokens import STATUS_COPIES, WAIT_COPIES, Disc, status_marker, unit_token, wait_marker
from toolkit.kit.palette import TEAM
from toolkit.players import PLAYERS
from toolkit.render.scene import Group, Page


def _disc_page(disc: Disc, label: str) -> Page:
    r = disc.diameter / 2  # a digital token is the piece as cut: no bleed
    return Page(disc.diameter, disc.diameter, [Group(disc.piece.at_trim(), dx=r, dy=r)], label=label)


def figure_export_set(ctx: KitContext) -> ExportSet:
    schematics, modules, board = build_schematics(ctx), build_modules(ctx), build_board(ctx)
    result = ExportSet(decks=decks_of(schematics) + decks_of(modules),
                       warnings=schematics.warnings + modules.warnings + board.warnings)
    for slug, page in board.pieces:
        result.pieces.append(Piece(slug, page.label or slug, page, "board"))
    player = ctx.theme.terms.player
    for side in PLAYERS:
        for unit in ctx.units():
            title = f"{player} {side.value}: {unit.name}"
            result.pieces.append(Piece(f"token-{side.value.lower()}-{unit.id}", title,
                                       _disc_page(unit_token(ctx, unit, side), title), "token", round=True,
                                       side=side.value, color=TEAM[side].fill))
    for status_id, name in ctx.theme.statuses.items():
        result.pieces.append(Piece(f"marker-{status_id}", name, _disc_page(status_marker(ctx, status_id), name),
                                   "token", round=True, copies=STATUS_COPIES))
    wait = ctx.theme.terms.wait
    result.pieces.append(Piece("marker-wait", wait, _disc_page(wait_marker(ctx), wait), "token", round=True,
                               copies=WAIT_COPIES))
    result.warnings += ctx.fits.drain()
    return result
