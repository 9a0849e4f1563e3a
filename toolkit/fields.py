"""Field types every game's data format shares: ids, texts, and the project file `duelkit.yaml`."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictStr
from pydantic_core import PydanticCustomError

# Each model's validator is built at its first pydantic validation, not at import: toolkit.plain_check accepts
# well-formed data without one (issue 28: building them all was a third of a small `validate`).
DEFER_BUILD = True

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
Slug = Annotated[StrictStr, Field(pattern=SLUG_PATTERN, max_length=64)]
Text = Annotated[StrictStr, Field(min_length=1, max_length=2000)]


def _one_line(text: str) -> str:
    """Names are printed on one line; a line break in one is reported as Y012, like other control characters."""
    if "\n" in text:
        raise PydanticCustomError("line_break", "a line break in one-line text")
    return text


MAX_SHORT_TEXT = 120
ShortText = Annotated[StrictStr, Field(min_length=1, max_length=MAX_SHORT_TEXT), AfterValidator(_one_line)]


RelativePath = Annotated[StrictStr, Field(min_length=1, max_length=400)]  # a file inside the project
HexColor = Annotated[StrictStr, Field(pattern=r"^#[0-9a-fA-F]{6}$")]
MAX_FONTS = 16  # fallback fonts a project may list


class BackSettings(BaseModel):
    """`back:` in duelkit.yaml: the project's card back. A picture is fitted whole on the back colour (never
    cropped); otherwise the standard design is drawn in `color`. `text` replaces the game's name in the medallion."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=DEFER_BUILD)

    image: RelativePath | None = None
    color: HexColor | None = None
    text: ShortText | None = None


class ProjectFile(BaseModel):
    """`duelkit.yaml` at the top of a designer's project: which game (or theme) it holds, its name, and its
    own files (a board, a card back; paths relative to the project) and words (theme overrides)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=DEFER_BUILD)

    theme: Slug
    name: ShortText | None = None
    board: RelativePath | None = None
    back: BackSettings | None = None
    terms: dict[StrictStr, ShortText] | None = None  # the theme's words replaced: {hangar: Garage}
    statuses: dict[StrictStr, ShortText] | None = None  # status names replaced: {burn: Scorch}
    # fallback fonts (TTF/OTF), used glyph by glyph for what DejaVu lacks; each is read whole (up to 40 MB),
    # so the list is bounded: a 2 MB duelkit.yaml could otherwise name one big font 100,000 times
    fonts: Annotated[list[RelativePath], Field(max_length=MAX_FONTS)] | None = None

    def paths(self) -> list[tuple[tuple[str | int, ...], str]]:
        """Every file this project file names: (where it is written, the path as written)."""
        found: list[tuple[tuple[str | int, ...], str]] = [(("board",), self.board)] if self.board else []
        if self.back is not None and self.back.image:
            found.append((("back", "image"), self.back.image))
        found += [(("fonts", index), font) for index, font in enumerate(self.fonts or ())]
        return found
