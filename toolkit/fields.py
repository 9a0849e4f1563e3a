"""Field types every game's data format shares: ids, texts, and the project file `duelkit.yaml`."""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictStr
from pydantic_core import PydanticCustomError

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
Slug = Annotated[StrictStr, Field(pattern=SLUG_PATTERN, max_length=64)]
Text = Annotated[StrictStr, Field(min_length=1, max_length=2000)]


def _one_line(text: str) -> str:
    """Names are printed on one line; a line break in one is reported as Y012, like other control characters."""
    if "\n" in text:
        raise PydanticCustomError("line_break", "a line break in one-line text")
    return text


ShortText = Annotated[StrictStr, Field(min_length=1, max_length=120), AfterValidator(_one_line)]


class ProjectFile(BaseModel):
    """`duelkit.yaml` at the top of a designer's project: which game (or theme) it holds."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    theme: Slug
    name: ShortText | None = None
