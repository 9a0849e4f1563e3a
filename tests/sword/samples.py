"""The 12 sample techniques bundled in techniques/, read once for the tests that play them against each other."""

from __future__ import annotations

from pathlib import Path

import yaml

from toolkit.sword.model import Technique

TECHNIQUES = [Technique.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
              for path in sorted((Path(__file__).resolve().parents[2] / "techniques").glob("*.yaml"))]
