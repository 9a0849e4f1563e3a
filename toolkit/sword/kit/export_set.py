"""sword-duel's pieces for `duelkit export`: each player's action deck, the technique and role decks,
the player mats and every token (range track, initiative, evade, track markers)."""

from __future__ import annotations

import re

from toolkit.export.pieces import ExportSet, Piece, decks_of
from toolkit.render.scene import Page
from toolkit.sword.context import SwordContext
from toolkit.sword.kit.cards import build_action_cards, build_role_cards, build_technique_cards
from toolkit.sword.kit.common import LOOKS, Cuts
from toolkit.sword.kit.sheets import build_player_mats
from toolkit.sword.kit.tokens import Token, token_rows


def _slug(*parts: str) -> str:
    return "-".join(p for p in (re.sub(r"[^a-z0-9]+", "-", part.lower()).strip("-") for part in parts) if p)


def sword_export_set(ctx: SwordContext) -> ExportSet:
    cards = [build_action_cards(ctx), build_technique_cards(ctx), build_role_cards(ctx)]
    mats = build_player_mats(ctx)
    result = ExportSet(decks=[deck for component in cards for deck in decks_of(component)],
                       warnings=[w for component in [*cards, mats] for w in component.warnings])
    colors = {look.player.value: look.fill for look in LOOKS}
    for slug, page in mats.pieces:
        side = slug.rsplit("-", 1)[-1].upper()
        result.pieces.append(Piece(slug, page.label or slug, page, "mat", side=side, color=colors.get(side, "")))
    cuts = Cuts(ctx.locate)
    seen: dict[str, int] = {}
    tokens: list[tuple[str, Token]] = []
    for row in token_rows(ctx, cuts):
        for token in row.tokens:
            label = _slug(token.label)
            side = token.side.value if token.side else ""
            slug = _slug("token", token.kind, side, "" if label.startswith(token.kind) else label)
            if slug not in seen:
                seen[slug] = 0
                tokens.append((slug, token))
            seen[slug] += 1
    for slug, token in tokens:
        side = token.side.value if token.side else ""
        title = f"{token.label} ({token.kind}{', player ' + side if side else ''})"
        page = Page(token.w, token.h, list(token.piece.at_trim()), label=title)  # a digital token: no bleed
        result.pieces.append(Piece(slug, title, page, "token", round=token.kind != "range", side=side,
                                   color=colors.get(side, ""), copies=seen[slug]))
    result.warnings += cuts.problems
    return result
