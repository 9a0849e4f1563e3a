"""Pictures and fonts made to exhaust a machine (issue 21, item 3): each is refused with a message naming
what is too large, within a bounded time and under 1 GB. The bombs run in a forked child, so one that
hangs or eats memory fails its test (killed at the deadline, its peak memory measured) instead of taking
the test run down."""

from __future__ import annotations

import base64
import json
import os
import resource
import signal
import struct
import time
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from tests.render.tiny_font import tiny_font
from toolkit.cli import main
from toolkit.pictures import MAX_SVG_ELEMENTS, read_art
from toolkit.render.fonts import FontFileError, check_font
from toolkit.safe_fs import FileProblem

DEADLINE = 120.0  # seconds: a hang guard for a busy machine, not a speed target (bench/ holds those)
GIGABYTE = 1024 ** 3
SVG_HEAD = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" '
            'height="100">')


def _bounded(work: Callable[[], str]) -> tuple[str, int]:
    """`work()` run in a forked child: (what it returned or raised, how much memory the child added at its
    peak, in bytes). A child still running at the deadline is killed and the test fails."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(read)
        try:
            text = work()
        except BaseException as exc:  # what was raised is the answer
            text = f"{type(exc).__name__}: {exc}"
        os.write(write, text.encode("utf-8", "replace")[:16_000])
        os._exit(0)
    os.close(write)
    start_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # what the child starts with, at most
    deadline = time.monotonic() + DEADLINE
    while True:
        done, _, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.wait4(pid, 0)
            os.close(read)
            pytest.fail(f"still running after {DEADLINE:.0f} s")
        time.sleep(0.05)
    with os.fdopen(read, "rb") as answer:
        text = answer.read().decode("utf-8")
    return text, max(0, usage.ru_maxrss * 1024 - start_rss)


def _art_problem(folder: Path, name: str) -> Callable[[], str]:
    def work() -> str:
        try:
            read_art(folder, name)
        except FileProblem as exc:
            return f"{exc.code}: {exc.message}"
        return "drawn"
    return work


@cache
def _png(width: int, height: int) -> bytes:
    """A black PNG of any size: a few hundred KB of zlib for 169 million pixels (every row is a filter byte
    and zeros, so the image data is zeros throughout, compressed a megabyte at a time)."""
    packer, left, block = zlib.compressobj(1), (width + 1) * height, bytes(2 ** 20)
    parts = []
    while left:
        parts.append(packer.compress(block[:min(left, len(block))]))
        left -= min(left, len(block))
    body = b"".join(parts) + packer.flush()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", body) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def huge_png() -> bytes:
    return _png(13_000, 13_000)


def _nested_uses(levels: int, copies: int) -> str:
    """Each level copies the level below `copies` times: copies ** levels rectangles from a 2 KB file."""
    parts = [SVG_HEAD, '<defs><rect id="l0" width="1" height="1"/>']
    for level in range(1, levels + 1):
        uses = "".join(f'<use xlink:href="#l{level - 1}" x="{i}"/>' for i in range(copies))
        parts.append(f'<g id="l{level}">{uses}</g>')
    parts.append(f'</defs><use xlink:href="#l{levels}"/></svg>')
    return "".join(parts)


@pytest.mark.parametrize(("svg", "message"), [
    (_nested_uses(6, 10), f"draws more than {MAX_SVG_ELEMENTS:,} elements once its <use> copies are expanded"),
    (SVG_HEAD + '<defs><circle id="c" r="1"/></defs>'
     + "".join(f'<use xlink:href="#c" x="{i % 100}" y="{i // 100}"/>' for i in range(5000)) + "</svg>",
     f"draws more than {MAX_SVG_ELEMENTS:,} elements"),
    (SVG_HEAD + '<path stroke="black" d="M0 0 ' + " ".join(f"L{i % 97} {i % 89}" for i in range(100_000))
     + '"/></svg>', "draws paths of more than 60,000 coordinates"),
    (SVG_HEAD + '<g id="a"><use xlink:href="#b"/></g><g id="b"><use xlink:href="#a"/></g></svg>',
     "has a <use> that copies itself"),
], ids=["a-million-nested-copies", "five-thousand-copies", "a-path-of-100000-points", "a-loop-of-copies"])
def test_svg_expansion_is_bounded(tmp_path: Path, svg: str, message: str) -> None:
    (tmp_path / "art.svg").write_text(svg, encoding="utf-8")
    answer, memory = _bounded(_art_problem(tmp_path, "art.svg"))
    assert answer.startswith("A001: 'art.svg' ")
    assert message in answer
    assert memory < GIGABYTE


def test_a_huge_png_inside_an_svg_meets_the_pixel_limit(tmp_path: Path, huge_png: bytes) -> None:
    (tmp_path / "art.svg").write_text(SVG_HEAD + '<image width="100" height="100" xlink:href="data:image/png;base64,'
                                      + base64.b64encode(huge_png).decode() + '"/></svg>', encoding="utf-8")
    answer, memory = _bounded(_art_problem(tmp_path, "art.svg"))
    assert answer == ("A001: 'art.svg' embeds a picture that is too large: 13,000 x 13,000 pixels; the limit is "
                      "60 million pixels")
    assert memory < GIGABYTE


def test_embedded_pictures_count_every_copy(tmp_path: Path) -> None:
    small = base64.b64encode(_png(3000, 3000)).decode()  # 9 million pixels, drawn 10 times
    copies = "".join(f'<use xlink:href="#p" x="{i}"/>' for i in range(10))
    (tmp_path / "art.svg").write_text(SVG_HEAD + f'<defs><image id="p" width="10" height="10" '
                                      f'xlink:href="data:image/png;base64,{small}"/></defs>{copies}</svg>')
    answer, _ = _bounded(_art_problem(tmp_path, "art.svg"))
    assert "draws more than 60 million pixels of embedded pictures (copies counted)" in answer


@pytest.mark.parametrize("size", [(9_000, 9_000), (13_000, 13_000)], ids=["over-the-limit", "over-pillows-limit"])
def test_a_png_over_the_pixel_limit_is_called_too_large(tmp_path: Path, huge_png: bytes,
                                                          size: tuple[int, int]) -> None:
    (tmp_path / "big.png").write_bytes(huge_png if size == (13_000, 13_000) else _png(*size))
    answer, memory = _bounded(_art_problem(tmp_path, "big.png"))
    assert answer == (f"A001: 'big.png' is too large: {size[0]:,} x {size[1]:,} pixels; the limit is 60 million "
                      "pixels")
    assert memory < GIGABYTE


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-8"])
def test_an_svg_declaring_an_entity_is_refused_in_any_encoding(tmp_path: Path, encoding: str) -> None:
    declared = "UTF-16" if encoding.startswith("utf-16") else "UTF-8"
    text = (f'<?xml version="1.0" encoding="{declared}"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>')
    (tmp_path / "art.svg").write_bytes(text.encode(encoding))
    with pytest.raises(FileProblem, match="declares entities or refers to other files"):
        read_art(tmp_path, "art.svg")


@pytest.mark.parametrize("svg", [
    SVG_HEAD + '<image href="file:///etc/passwd"/></svg>',
    SVG_HEAD + '<image xlink:href="other.png"/></svg>',
    SVG_HEAD + '<rect style="fill: url(http://example.org/x)"/></svg>',
    SVG_HEAD + '<style>@import "http://example.org/a.css";</style></svg>',
    SVG_HEAD + '<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd"/></svg>',
], ids=["file-address", "relative-file", "css-url", "css-import", "xinclude"])
def test_an_svg_referring_to_anything_but_itself_is_refused(tmp_path: Path, svg: str) -> None:
    (tmp_path / "art.svg").write_text(svg, encoding="utf-8")
    with pytest.raises(FileProblem, match="refers to other files or addresses"):
        read_art(tmp_path, "art.svg")


def test_an_svg_with_copies_within_the_bounds_is_drawn(tmp_path: Path) -> None:
    copies = "".join(f'<use xlink:href="#c" x="{10 * i}" fill="#{i}0{i}0{i}0"/>' for i in range(10))
    (tmp_path / "art.svg").write_text(SVG_HEAD + f'<defs><circle id="c" cx="5" cy="50" r="5"/></defs>{copies}'
                                      '<image width="10" height="10" xlink:href="data:image/png;base64,'
                                      + base64.b64encode(_png(4, 4)).decode() + '"/></svg>', encoding="utf-8")
    art = read_art(tmp_path, "art.svg")
    assert (art.kind, art.width, art.height) == ("png", 1200, 1200)


def _cmap_bomb(path: Path) -> bytes:
    """A valid tiny font whose only character map (format 12) claims every code from 0 to 2**32 - 1."""
    group = struct.pack(">III", 0, 0xFFFFFFFF, 1)
    subtable = struct.pack(">HHIII", 12, 0, 16 + len(group), 0, 1) + group
    cmap = struct.pack(">HHHHI", 0, 1, 3, 10, 12) + subtable
    return tiny_font(path, "A", extra_tables={"cmap": cmap})


def test_a_font_whose_character_map_claims_billions_of_entries_is_refused(tmp_path: Path) -> None:
    data = _cmap_bomb(tmp_path / "bomb.ttf")

    def work() -> str:
        try:
            return check_font(data)
        except FontFileError as exc:
            return f"refused: {exc}"

    answer, memory = _bounded(work)
    assert answer == ("refused: its character map claims more characters than Unicode has (4,294,967,296 or more, "
                      "of 1,114,112): the font is broken or made to exhaust memory")
    assert memory < GIGABYTE
    assert check_font(tiny_font(tmp_path / "fine.ttf", "AB")) == "Test Fallback"  # a real font still reads


def test_bombs_are_located_errors_in_validate(capsys, base_project: Path) -> None:
    (base_project / "art.svg").write_text(_nested_uses(6, 10), encoding="utf-8")
    _cmap_bomb(base_project / "bomb.ttf")
    (base_project / "duelkit.yaml").write_text("theme: duel-protocol\nfonts:\n  - bomb.ttf\n", encoding="utf-8")
    unit = base_project / "unit_data" / "alpha.yaml"
    unit.write_text(unit.read_text(encoding="utf-8").replace("id: alpha", "id: alpha\nart: art.svg", 1),
                    encoding="utf-8")
    assert main(["validate", str(base_project), "--format", "json"]) == 1
    problems = json.loads(capsys.readouterr().out)
    found = {(p["code"], Path(p["file"]).name, p["line"]) for p in problems}
    assert ("A001", "alpha.yaml", 2) in found
    assert ("G002", "duelkit.yaml", 3) in found
    assert any("character map claims" in p["message"] for p in problems if p["code"] == "G002")
