"""What sword-duel generators and commands work from: the validated techniques, draft and builds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from toolkit.kit.options import PrintOptions
from toolkit.loading import Located
from toolkit.problems import Problem
from toolkit.sword.constants import GAME_ID, GAME_NAME
from toolkit.sword.model import Build, Draft, Technique

if TYPE_CHECKING:
    from toolkit.pictures import Art, BackLook

__all__ = ["GAME_ID", "GAME_NAME", "SwordContext", "SwordDatabase"]



@dataclass
class SwordDatabase:
    techniques: dict[str, Technique] = field(default_factory=dict)  # every technique file, by id (sorted)
    draft: Draft | None = None  # the kit's draft deck
    builds: dict[str, Build] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    sources: dict[str, Located[Technique]] = field(default_factory=dict)  # where each technique is written
    name: str = GAME_NAME  # the printed name: the project's `name:` in duelkit.yaml, else the spec's
    art: dict[str, Art] = field(default_factory=dict)  # each technique's picture (`art:`), by technique id
    back: BackLook | None = None  # the project's card back (`back:` in duelkit.yaml)

    @property
    def has_errors(self) -> bool:
        return any(problem.is_error for problem in self.problems)

    def draft_techniques(self) -> list[Technique]:
        """The draft's techniques in the draft's order (all techniques when there is no draft)."""
        if self.draft is None:
            return list(self.techniques.values())
        return [self.techniques[tid] for tid in self.draft.techniques if tid in self.techniques]


@dataclass(frozen=True)
class SwordContext:
    db: SwordDatabase
    paper: str  # "a4" or "letter"
    options: PrintOptions = field(default_factory=PrintOptions)  # layout, ink and board paper

    @property
    def name(self) -> str:
        """The game's printed name (the project's `name:`)."""
        return self.db.name

    def locate(self, owner: str, field_name: str) -> tuple[str, int, int] | None:
        """The file, line and column of a technique's field (for text-fit warnings)."""
        entry = self.db.sources.get(owner)
        if entry is None:
            return None
        pos = entry.pos(*(part for part in field_name.split(".") if part)) or entry.data.pos
        return entry.source.display, pos.line, pos.column
