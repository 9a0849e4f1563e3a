"""Rule reference sheets: computed from the rules model, themed, overridable, and really viewable."""

from __future__ import annotations

import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from toolkit.cli import main
from toolkit.figure.kit.manual import MATRIX_ORDER
from toolkit.figure.model import Color
from toolkit.figure.rules import combat

THEME_WORDS = {"duel-protocol": ("Hangar", "Data Disk", "System Malfunction", "Operator"),
               "chimera": ("Bench", "Combat Dial", "Status Effect", "Commander", "Rebooting")}


class _Tables(HTMLParser):
    """Every <table> of a page as rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):  # noqa: ARG002 - HTMLParser's signature
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def html_tables(path: Path) -> list[list[list[str]]]:
    parser = _Tables()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.tables


def pdf_matrix(path: Path) -> list[list[str]]:
    with pdfplumber.open(path) as pdf:
        table = pdf.pages[0].extract_tables({"vertical_strategy": "lines", "horizontal_strategy": "lines"})[0]
    return [[" ".join((cell or "").split()) for cell in row] for row in table]


def expected_matrix() -> list[list[str]]:
    return [[combat.matchup_rule(a, d).value for d in MATRIX_ORDER] for a in MATRIX_ORDER]


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("reference")
    assert main(["reference", "--out", str(out)]) == 0
    return out


@pytest.mark.parametrize("theme", ["duel-protocol", "chimera"])
def test_matrix_in_pdf_and_html_equals_the_resolution_code(reference: Path, theme: str) -> None:
    want = expected_matrix()
    html_matrix = html_tables(reference / theme / "manual.html")[0]
    assert [row[1:] for row in html_matrix[1:]] == want
    assert [row[1:] for row in pdf_matrix(reference / theme / "manual.pdf")[1:]] == want
    assert len(want) * len(want[0]) == 25


def test_changing_a_rule_changes_the_sheet(monkeypatch, tmp_path: Path) -> None:
    real = combat.matchup_rule

    def patched(attacker: Color, defender: Color) -> combat.Rule:
        if (attacker, defender) == (Color.WHITE, Color.BLUE):
            return combat.Rule.DRAW
        return real(attacker, defender)

    monkeypatch.setattr(combat, "matchup_rule", patched)
    assert main(["reference", "--game", "duel-protocol", "--out", str(tmp_path)]) == 0
    white_row = MATRIX_ORDER.index(Color.WHITE) + 1
    blue_column = MATRIX_ORDER.index(Color.BLUE) + 1
    assert html_tables(tmp_path / "duel-protocol" / "manual.html")[0][white_row][blue_column] == "Draw"
    assert pdf_matrix(tmp_path / "duel-protocol" / "manual.pdf")[white_row][blue_column] == "Draw"


@pytest.mark.parametrize(("theme", "other"), [("duel-protocol", "chimera"), ("chimera", "duel-protocol")])
def test_each_theme_speaks_its_own_words(reference: Path, theme: str, other: str) -> None:
    html = (reference / theme / "manual.html").read_text(encoding="utf-8")
    with pdfplumber.open(reference / theme / "manual.pdf") as pdf:
        pdf_text = " ".join(" ".join((page.extract_text() or "").split()) for page in pdf.pages)
    for word in THEME_WORDS[theme]:
        assert word in html, word
        assert word in pdf_text, word
    for word in THEME_WORDS[other]:
        if word not in THEME_WORDS[theme]:
            assert word not in html, word
            assert word not in pdf_text, word


def test_status_table_follows_the_theme_variant(reference: Path) -> None:
    dp = {row[0]: row[1] for row in html_tables(reference / "duel-protocol" / "manual.html")[1][1:]}
    ch = {row[0]: row[1] for row in html_tables(reference / "chimera" / "manual.html")[1][1:]}
    assert "20 less damage" in dp["Corrosive Leak"]
    assert "Opposing Units may move past it" in dp["Standby Mode"]  # the theme's word for unit
    assert "end of its owner's turn" in ch["Poison"]
    assert "3 of its owner's turns" in ch["Frozen"]


def test_manual_and_quick_reference_are_in_the_kit(tmp_path: Path) -> None:
    assert main(["build", "--game", "chimera", "--out", str(tmp_path)]) == 0
    with pdfplumber.open(tmp_path / "chimera" / "kit.pdf") as pdf:
        text = " ".join(page.extract_text() or "" for page in pdf.pages)
    assert "Project Chimera: protocol manual" in text
    assert "quick reference" in text


def test_project_template_overrides_and_errors_name_the_line(capsys, tmp_path: Path) -> None:
    project = tmp_path / "kit"
    assert main(["new", str(project)]) == 0
    (project / "templates" / "manual.html.j2").write_text(
        "<html><body><h1>{{ manual.title }} (house style)</h1></body></html>\n", encoding="utf-8")
    assert main(["reference", str(project)]) == 0
    html = (project / "output" / "reference" / "duel-protocol" / "manual.html").read_text()
    assert "(house style)" in html
    assert "<h1>kit: protocol manual" in html  # the project's name (`name:` in duelkit.yaml), not the theme's
    (project / "templates" / "manual.html.j2").write_text("<p>\n{{ manual.title }\n</p>\n", encoding="utf-8")
    assert main(["reference", str(project)]) == 1
    assert "manual.html.j2:2" in capsys.readouterr().err
    (project / "templates" / "manual.html.j2").write_text("<p>\n\n{{ manual.nonexistent }}</p>\n")
    assert main(["reference", str(project)]) == 1
    err = capsys.readouterr().err
    assert "manual.html.j2:3" in err
    assert "nonexistent" in err


def test_templates_are_sandboxed_and_escaped(capsys, tmp_path: Path) -> None:
    project = tmp_path / "kit"
    assert main(["new", str(project), "--from-bundled"]) == 0
    (project / "templates" / "manual.html.j2").write_text(
        "{{ manual.title.__class__.__mro__[1].__subclasses__() }}\n", encoding="utf-8")
    assert main(["reference", str(project)]) == 1
    assert "manual.html.j2:1" in capsys.readouterr().err
    unit = project / "unit_data" / "v-k4.yaml"
    unit.write_text(unit.read_text().replace("name: Volt-Class Unit V-K4", "name: <script>alert(1)</script>"))
    module = project / "modules" / "x-attack.yaml"
    module.write_text(module.read_text().replace("name: X Attack", "name: <b>X</b> Attack"))
    (project / "templates" / "manual.html.j2").unlink()
    assert main(["reference", str(project)]) == 0
    html = (project / "output" / "reference" / "duel-protocol" / "manual.html").read_text()
    assert "&lt;b&gt;X&lt;/b&gt; Attack" in html
    assert "<b>X</b>" not in html


def _browser() -> str | None:
    return next((path for name in ("chromium", "chromium-browser", "google-chrome")
                 if (path := shutil.which(name))), None)


@pytest.mark.skipif(_browser() is None, reason="no Chromium on this machine (.ci/run installs Debian's chromium)")
def test_html_renders_in_headless_chromium(reference: Path, tmp_path: Path) -> None:
    shot = tmp_path / "manual.png"
    subprocess.run([_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--no-first-run",
                    f"--user-data-dir={tmp_path / 'profile'}", "--hide-scrollbars", "--window-size=1000,1400",
                    f"--screenshot={shot}", (reference / "chimera" / "manual.html").as_uri()],
                   check=True, capture_output=True, timeout=120)
    image = Image.open(shot).convert("L")
    histogram = image.histogram()
    dark = sum(histogram[:128]) / (image.width * image.height)
    assert image.size == (1000, 1400)
    assert 0.01 < dark < 0.6, f"screenshot looks blank or solid ({dark:.3f} dark)"


def test_status_sentences_follow_the_rule_values() -> None:
    """The manual's status text is generated from the StatusRule, so changing a field changes the text."""
    from dataclasses import replace

    from toolkit.figure.kit.manual import describe_status
    from toolkit.figure.rules.status import status_rule
    from toolkit.figure.theme import load_theme

    theme = load_theme("chimera")
    sleep = status_rule("spec001", "sleep")
    text = describe_status(sleep, theme.terms, "Malfunction")
    assert "It cannot be selected to move or initiate an attack." in text
    assert "still spins its Combat Dial as usual" in text
    assert "counts as a Malfunction" not in text
    out_of_combat = describe_status(replace(sleep, spins_when_attacked=False), theme.terms, "Malfunction")
    assert "does not spin: it counts as a Malfunction" in out_of_combat
    assert "still spins" not in out_of_combat
    protocol = load_theme("duel-protocol")
    frozen = describe_status(status_rule("spec000", "frozen"), protocol.terms, "Miss")
    assert "counts as a Miss" in frozen
    assert "initiate an attack" in frozen
