"""Field types every game's data format shares: ids, texts, and the project file `duelkit.yaml`."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StrictStr

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
Slug = Annotated[StrictStr, Field(pattern=SLUG_PATTERN, max_length=64)]
Text = Annotated[StrictStr, Field(min_length=1, max_length=2000)]
ShortText = Annotated[StrictStr, Field(min_length=1, max_length=120)]


RelativePath = Annotated[StrictStr, Field(min_length=1, max_length=400)]  # a file inside the project


class ProjectFile(BaseModel):
    """`duelkit.yaml` at the top of a designer's project: which game (or theme) it holds, and the project's
    own board file (a path relative to the project)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    theme: Slug
    name: ShortText | None = None
    board: RelativePath | None = None

    def paths(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Every file this project file names: (where it is written, the path as written)."""
        return [(("board",), self.board)] if self.board else []
