"""The designer's name and look (issue 13 item 2): `name:` on backs, footers, manual and PDF titles; `art:` on
units and modules (PNG, JPEG or SVG in the project, downsampled once, drawn in a frame on the card and the
token); a project card back; theme overrides checked like a theme. Bad pictures are located errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
from PIL import Image, ImageDraw

from toolkit.cli import main
from toolkit.pictures import ART_PIXELS, read_art
from toolkit.safe_fs import FileProblem

SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
       '<rect width="200" height="100" fill="#caf0f8"/><circle cx="100" cy="50" r="40" fill="#0077b6"/></svg>')


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _photo(path: Path, size: tuple[int, int] = (3000, 2000)) -> None:
    image = Image.new("RGB", size, "#2a6f97")
    draw = ImageDraw.Draw(image)
    for x in range(0, size[0], 97):
        draw.line((x, 0, size[0] - x, size[1]), fill="#ffd166", width=9)  # detail, so the file is large
    image.save(path, quality=95)


def _set(path: Path, after: str, line: str) -> None:
    """Insert `line` after the first line starting with `after`."""
    lines = path.read_text().splitlines(keepends=True)
    index = next(i for i, text in enumerate(lines) if text.startswith(after))
    lines.insert(index + 1, line + "\n")
    path.write_text("".join(lines))


@pytest.fixture
def forge(base_project: Path) -> Path:
    """The base project named Forge Wars, with a photo on a unit, an SVG on another, a PNG on a module, a
    picture back and its own words for the Hangar and Paralysis."""
    art = base_project / "art"
    art.mkdir()
    _photo(art / "alpha.jpg")
    (art / "bravo.svg").write_text(SVG)
    Image.new("RGBA", (300, 300), (6, 214, 160, 255)).save(art / "boost.png")
    Image.new("RGB", (400, 600), "#3d2c8d").save(art / "back.png")
    _set(base_project / "unit_data" / "alpha.yaml", "id: alpha", "art: art/alpha.jpg")
    more = base_project / "unit_data" / "more.yaml"
    more.write_text(more.read_text().replace("  - id: bravo\n", "  - id: bravo\n    art: art/bravo.svg\n", 1))
    _set(base_project / "modules" / "x-attack.yaml", "id: x-attack", "art: art/boost.png")
    (base_project / "duelkit.yaml").write_text(
        "theme: duel-protocol\nname: Forge Wars\nback: {image: art/back.png, text: Forge Wars}\n"
        "terms: {hangar: Garage}\nstatuses: {paralysis: Jammed}\n")
    return base_project


def _texts(pdf_path: Path) -> list[str]:
    pdf = pypdfium2.PdfDocument(pdf_path)
    return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]


def _images(pdf_path: Path) -> list[tuple[int, int, str]]:
    """(width, height, filter) of every image XObject the file stores."""
    found = []
    with pikepdf.open(pdf_path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == "/Image":
                filters = obj.get("/Filter")
                names = [str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [str(filters)]
                found.append((int(obj.Width), int(obj.Height), "+".join(names)))
    return found


def test_a_kit_carries_the_projects_name_art_and_back(capsys, forge: Path) -> None:
    code, _, err = run(capsys, "build", str(forge))
    assert code == 0, err
    kit = forge / "output" / "duel-protocol"
    with pikepdf.open(kit / "kit.pdf") as pdf:
        assert str(pdf.docinfo["/Title"]) == "Forge Wars: print-and-play kit"
    schematics = _texts(kit / "schematics.pdf")
    assert "Forge Wars" in schematics[0]  # the footers
    assert "DUEL PROTOCOL" not in " ".join(schematics)
    assert any("Forge Wars" in text and "Reference Schematic" in text and "Bravo" not in text for text in schematics)
    assert "Jammed" in " ".join(_texts(kit / "tokens.pdf"))  # the project's own status name on its marker
    assert "Garage" in " ".join(_texts(kit / "manual.pdf"))
    assert _texts(kit / "manual.pdf")[0].startswith("Forge Wars")
    # the photo is downsampled once to ART_PIXELS and stays a JPEG; the SVG arrives as pixels; the back too
    pictures = _images(kit / "schematics.pdf")
    assert (ART_PIXELS, 800, "/DCTDecode") in pictures
    assert any(w == ART_PIXELS and h == ART_PIXELS // 2 for w, h, _ in pictures)  # the 2:1 SVG
    assert (400, 600, "/FlateDecode") in pictures
    assert len(pictures) == 3  # each picture stored once, however many cards show it
    assert (300, 300, "/FlateDecode") in _images(kit / "modules.pdf")
    assert len(_images(kit / "tokens.pdf")) == 2  # alpha's and bravo's tokens
    assert (forge / "art" / "alpha.jpg").stat().st_size > 1_000_000
    assert (kit / "schematics.pdf").stat().st_size < 600_000


def test_without_a_name_the_theme_name_is_printed(capsys, base_project: Path) -> None:
    (base_project / "duelkit.yaml").write_text("theme: duel-protocol\n")
    assert run(capsys, "build", str(base_project))[0] == 0
    with pikepdf.open(base_project / "output" / "duel-protocol" / "kit.pdf") as pdf:
        assert str(pdf.docinfo["/Title"]) == "DUEL PROTOCOL: print-and-play kit"


def test_a_sword_duel_project_prints_its_name(capsys, tmp_path: Path) -> None:
    project = tmp_path / "blades"
    assert run(capsys, "new", str(project), "--theme", "sword-duel")[0] == 0
    (project / "duelkit.yaml").write_text("theme: sword-duel\nname: Blades at Dawn\n")
    code, _, err = run(capsys, "build", str(project))
    assert code == 0, err
    kit = project / "output" / "sword-duel"
    with pikepdf.open(kit / "kit.pdf") as pdf:
        assert str(pdf.docinfo["/Title"]) == "Blades at Dawn: print-and-play kit"
    text = " ".join(_texts(kit / "kit.pdf"))
    assert "Blades at Dawn" in text
    assert "Untitled Dueling Game" not in text


@pytest.mark.parametrize(("art", "content", "code", "message"), [
    ("art/none.png", None, "F003", "does not exist in the project"),
    ("../outside.png", None, "F004", "is not a path inside the project"),
    ("art/fake.png", b"not a picture at all", "A001", "cannot be read as a PNG, JPEG or SVG picture"),
    ("art/anim.gif", "gif", "A001", "is GIF, not PNG, JPEG or SVG"),
    ("art/leaky.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><image href="file:///etc/passwd"/></svg>', "A001",
     "refers to other files or addresses"),
])
def test_a_bad_picture_is_a_located_error(capsys, base_project: Path, art: str, content: bytes | str | None,
                                          code: str, message: str) -> None:
    (base_project / "art").mkdir()
    if content == "gif":
        Image.new("RGB", (10, 10)).save(base_project / art)
    elif isinstance(content, bytes):
        (base_project / art).write_bytes(content)
    _set(base_project / "unit_data" / "alpha.yaml", "id: alpha", f"art: {art}")
    exit_code, out, _ = run(capsys, "validate", str(base_project), "--format", "json")
    assert exit_code == 1
    [problem] = [p for p in json.loads(out) if p["code"] == code]
    assert problem["file"].endswith("alpha.yaml")
    assert (problem["line"], problem["column"]) == (2, 6)
    assert message in problem["message"]
    assert run(capsys, "build", str(base_project))[0] == 1


@pytest.mark.parametrize(("extra", "code", "line", "message"), [
    ("terms: {hangar: Garage, hanger: Shed}\n", "S001", 2, "unknown term 'hanger'"),
    ("terms: {game: Forge}\n", "S001", 2, "the game's name is not a term"),
    ("statuses: {burns: Scorch}\n", "X007", 2, "'burns' is not a status of theme 'duel-protocol'"),
    ("statuses: {burn: Standby Mode}\n", "S004", 2, "'Standby Mode' already names status 'sleep'"),
    ("back: {color: red}\n", "S004", 2, ""),
    ("back: {image: art/missing.png}\n", "F003", 2, "does not exist in the project"),
])
def test_project_words_and_back_are_checked_like_a_theme(capsys, base_project: Path, extra: str, code: str,
                                                         line: int, message: str) -> None:
    (base_project / "duelkit.yaml").write_text("theme: duel-protocol\n" + extra)
    exit_code, out, _ = run(capsys, "validate", str(base_project), "--format", "json")
    assert exit_code == 1
    hits = [p for p in json.loads(out) if p["code"] == code and p["file"].endswith("duelkit.yaml")]
    assert hits, out
    assert hits[0]["line"] == line
    assert message in hits[0]["message"]


def test_pictures_are_downsampled_once_and_reproducibly(tmp_path: Path) -> None:
    _photo(tmp_path / "big.jpg", (4000, 1000))
    first, second = read_art(tmp_path, "big.jpg"), read_art(tmp_path, "big.jpg")
    assert first == second
    assert (first.kind, first.width, first.height) == ("jpeg", ART_PIXELS, 300)
    with Image.open(io.BytesIO(first.data)) as decoded:
        assert decoded.size == (ART_PIXELS, 300)
    (tmp_path / "small.svg").write_text(SVG)
    drawn = read_art(tmp_path, "small.svg")
    assert (drawn.kind, drawn.width, drawn.height) == ("png", ART_PIXELS, ART_PIXELS // 2)
    (tmp_path / "entity.svg").write_text('<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg>&x;</svg>')
    with pytest.raises(FileProblem) as refused:
        read_art(tmp_path, "entity.svg")
    assert refused.value.code == "A001"


def test_figure_only_settings_in_a_sword_duel_project_are_said_not_ignored(capsys, tmp_path: Path) -> None:
    project = tmp_path / "blades"
    assert run(capsys, "new", str(project), "--theme", "sword-duel")[0] == 0
    (project / "duelkit.yaml").write_text("theme: sword-duel\nterms: {hangar: Garage}\n")
    code, out, _ = run(capsys, "validate", str(project), "--format", "json")
    assert code == 0
    [warning] = [p for p in json.loads(out) if p["code"] == "S004"]
    assert warning["line"] == 2
    assert "`terms:` is not used by sword-duel projects" in warning["message"]


@pytest.fixture
def blades(capsys, tmp_path: Path) -> Path:
    """A sword-duel project with a photo on one technique and an SVG on another."""
    project = tmp_path / "blades"
    assert run(capsys, "new", str(project), "--theme", "sword-duel")[0] == 0
    (project / "art").mkdir()
    _photo(project / "art" / "crane.jpg")
    (project / "art" / "moon.svg").write_text(SVG)
    _set(project / "techniques" / "mushin.yaml", "id: mushin", "art: art/crane.jpg")
    _set(project / "techniques" / "fudoshin.yaml", "id: fudoshin", "art: art/moon.svg")
    return project


def _sword_warnings(capsys, project: Path) -> list[tuple[str, str]]:
    code, out, err = run(capsys, "validate", str(project), "--format", "json")
    assert code == 0, err
    return [(p["code"], p["file"]) for p in json.loads(out)]


def test_a_sword_duel_project_has_technique_art_and_its_own_back(capsys, blades: Path) -> None:
    Image.new("RGB", (400, 600), "#3d2c8d").save(blades / "art" / "back.png")
    (blades / "duelkit.yaml").write_text("theme: sword-duel\nname: Blades at Dawn\n"
                                         "back: {image: art/back.png, text: Dawn Duel}\n")
    assert not [w for w in _sword_warnings(capsys, blades) if w[0] == "S004"]  # `back:` is used now
    code, _, err = run(capsys, "build", str(blades))
    assert code == 0, err
    cards = blades / "output" / "sword-duel" / "sword-cards.pdf"
    pictures = _images(cards)
    assert (ART_PIXELS, 800, "/DCTDecode") in pictures  # the photo, downsampled once
    assert any(w == ART_PIXELS and h == ART_PIXELS // 2 for w, h, _ in pictures)  # the SVG as pixels
    assert (400, 600, "/FlateDecode") in pictures  # the back
    assert len(pictures) == 3  # each stored once, however many backs show it
    assert "Dawn Duel" in " ".join(_texts(cards))  # the back's words in the medallion


def test_technique_art_keeps_the_card_text_fitting(capsys, blades: Path) -> None:
    """Every technique with a picture: the card texts fit as they did without (no new fit warning)."""
    before = _sword_warnings(capsys, blades)
    for path in (blades / "techniques").glob("*.yaml"):
        if "art:" not in path.read_text():
            _set(path, "id: ", "art: art/crane.jpg")
    assert _sword_warnings(capsys, blades) == before
    assert run(capsys, "build", str(blades))[0] == 0


def test_a_bad_technique_picture_is_a_located_error(capsys, blades: Path) -> None:
    (blades / "art" / "fake.png").write_bytes(b"not a picture at all")
    path = blades / "techniques" / "mushin.yaml"
    path.write_text(path.read_text().replace("art/crane.jpg", "art/fake.png"))
    code, out, _ = run(capsys, "validate", str(blades), "--format", "json")
    assert code == 1
    [problem] = [p for p in json.loads(out) if p["code"] == "A001"]
    assert problem["file"].endswith("mushin.yaml")
    assert (problem["line"], problem["column"]) == (2, 6)
    assert "cannot be read as a PNG, JPEG or SVG picture" in problem["message"]
    assert run(capsys, "build", str(blades))[0] == 1


def test_a_sword_duel_back_colour_and_words(capsys, blades: Path) -> None:
    (blades / "duelkit.yaml").write_text('theme: sword-duel\nback: {color: "#d8e2dc", text: Dawn Duel}\n')
    assert run(capsys, "build", str(blades))[0] == 0
    cards = blades / "output" / "sword-duel" / "sword-cards.pdf"
    assert "DAWN DUEL" in " ".join(_texts(cards))  # the sword back's capitals
    pdf = pypdfium2.PdfDocument(cards)
    backs = pdf[len(pdf) - 1].render(scale=0.5).to_pil().convert("RGB")  # the technique and role backs
    assert (0xD8, 0xE2, 0xDC) in {colour for _, colour in backs.getcolors(1 << 20)}


def test_a_sword_duel_back_that_is_not_a_picture_is_a_located_error(capsys, blades: Path) -> None:
    (blades / "art" / "back.png").write_bytes(b"not a picture at all")
    (blades / "duelkit.yaml").write_text("theme: sword-duel\nback: {image: art/back.png}\n")
    code, out, _ = run(capsys, "validate", str(blades), "--format", "json")
    assert code == 1
    [problem] = [p for p in json.loads(out) if p["code"] == "A001"]
    assert problem["file"].endswith("duelkit.yaml")
    assert problem["line"] == 2
    assert run(capsys, "build", str(blades))[0] == 1
