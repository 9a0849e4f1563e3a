"""Safe, bounded YAML loading that remembers where every key and value came from.

PyYAML parses (libyaml's C parser when PyYAML has it, else its pure-Python one); we compose the node
tree and build values ourselves, so that:
- duplicate keys are rejected, naming both lines;
- YAML 1.1 surprises are switched off: `yes/no/on/off` and dates stay strings;
- alias expansion (billion laughs), nesting depth and file size are bounded;
- every mapping and list remembers the position of each key and value, for located messages.
Nothing here prints; problems are returned.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from toolkit.located import LocatedDict as LocatedDict
from toolkit.located import LocatedList as LocatedList
from toolkit.located import Pos as Pos
from toolkit.problems import Problem, Severity
from toolkit.rebuild_memo import RebuildMemo, in_effect
from toolkit.safe_fs import FileProblem, display_path, read_file
from toolkit.yaml_direct import NotDirect, PlainTags, build_direct
from toolkit.yaml_events import NestingTooDeep, ParsersDisagree, compose_single_node

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 40
MAX_EXPANDED_NODES = 200_000

# "libyaml": C-speed parsing, composed by toolkit.yaml_events; "python": PyYAML's pure-Python parser.
# Both give the same values, positions and problems; tests and benchmarks switch BACKEND to compare them.
BACKENDS: tuple[str, ...] = ("libyaml", "python") if yaml.__with_libyaml__ else ("python",)
BACKEND = BACKENDS[0]

_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
# C0 controls (tab included), DEL and C1 controls: quoted escapes such as "\e" or "\t" put them in a
# value although the YAML reader refuses them raw. Line breaks are paragraphs in long text; the schema
# refuses them in one-line fields (names).
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f]")
_FLAGGED = re.compile(f"{_CONTROL.pattern}|{_INVISIBLE.pattern}")  # what _Builder._scalar reports in text

_STR = "tag:yaml.org,2002:str"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
_BOOL = "tag:yaml.org,2002:bool"
_NULL = "tag:yaml.org,2002:null"
_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"
_MERGE = "tag:yaml.org,2002:merge"


def _pos(node: Node) -> Pos:
    return Pos(node.start_mark.line + 1, node.start_mark.column + 1)


class _StrictResolver(yaml.resolver.Resolver):
    """YAML 1.2-like implicit typing: only true/false are booleans, no timestamps, no sexagesimals."""


_StrictResolver.yaml_implicit_resolvers = {}
for _first, _resolvers in yaml.resolver.Resolver.yaml_implicit_resolvers.items():
    _StrictResolver.yaml_implicit_resolvers[_first] = [
        (tag, regexp)
        for tag, regexp in _resolvers
        if tag not in (_BOOL, "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:value", _INT, _FLOAT)
    ]
_StrictResolver.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
_StrictResolver.add_implicit_resolver(_INT, re.compile(r"^[-+]?[0-9]+$"), list("-+0123456789"))
_StrictResolver.add_implicit_resolver(
    _FLOAT,
    re.compile(r"^(?:[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."),
)


_RESOLVER = _StrictResolver()
_PLAIN_TAGS = PlainTags(_StrictResolver.yaml_implicit_resolvers)

# Text the C parser reads differently: non-printable characters (libyaml counts their offset in bytes),
# tabs (libyaml allows them as separators), `|#` block-scalar headers, and an explicit `?` key indicator
# (libyaml marks a missing value elsewhere). Such text goes to the pure-Python parser.
# what libyaml does not take as printable: every character but \n, \r, \x20-\x7e, \x85, \xa0-\ud7ff,
# \ue000-\ufffd and the astral planes, written as the few it is (the negated class took 18 ms to compile)
_LIBYAML_CHARS = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
_LIBYAML_HEADER = re.compile(r"[|>][-+0-9]*#")
_LIBYAML_KEY = re.compile(r"(?:^|[\s\[{,])\?(?:\s|$)", re.MULTILINE)


def _libyaml_differs(text: str) -> bool:
    """Whether the text holds what libyaml reads differently (searched only when its '#' or '?' is there:
    one alternation over every character costs more than parsing the file; a header needs its `|` or `>`)."""
    return bool(_LIBYAML_CHARS.search(text) or ("#" in text and ("|" in text or ">" in text)
                                                  and _LIBYAML_HEADER.search(text))
                or ("?" in text and _LIBYAML_KEY.search(text)))


class _BoundedLoader(
    yaml.reader.Reader, yaml.scanner.Scanner, yaml.parser.Parser, yaml.composer.Composer, _StrictResolver
):
    """Composes a node tree only (no construction), refusing to nest deeper than MAX_DEPTH."""

    def __init__(self, text: str) -> None:
        yaml.reader.Reader.__init__(self, text)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        yaml.composer.Composer.__init__(self)
        _StrictResolver.__init__(self)
        self._depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise NestingTooDeep(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


@dataclass
class SourceFile:
    """The text of one file, kept so messages can quote the offending line."""

    path: Path
    display: str
    lines: list[str]

    def problem(
        self,
        code: str,
        pos: Pos | None,
        message: str,
        *,
        hint: str = "",
        expected: str = "",
        found: str = "",
        severity: Severity = Severity.ERROR,
    ) -> Problem:
        line, column = (pos.line, pos.column) if pos else (0, 0)
        source_line = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return Problem(code, severity, self.display, line, column, message, hint, expected, found, source_line)


@dataclass
class LoadedYaml:
    source: SourceFile
    data: Any  # LocatedDict / LocatedList / scalar, or None when problems stopped loading
    problems: list[Problem]


def load_yaml_file(path: Path, display: str | None = None, root: Path | None = None) -> LoadedYaml:
    """Read and parse one YAML file. Never raises for bad content; returns problems instead.
    With `root` (the project), a file reached through a link leading outside it is refused unread."""
    display = display or str(path)
    cache = _PARSE_CACHE.get()
    unread = cache.unread(path, display) if cache is not None else None
    if unread is not None:
        return unread
    signature = _signature(path) if cache is not None else None
    empty = SourceFile(path, display, [])
    try:
        raw, size = read_file(path, MAX_FILE_BYTES, root)
    except FileProblem as exc:
        return LoadedYaml(empty, None, [exc.problem(display if exc.where == path else display_path(exc.where))])
    if size > MAX_FILE_BYTES:
        return LoadedYaml(empty, None, [empty.problem(
            "Y008", None, f"file is {size} bytes; the limit is {MAX_FILE_BYTES} bytes",
            hint="split the data into several files", expected=f"<= {MAX_FILE_BYTES} bytes",
            found=f"{size} bytes")])
    loaded = load_yaml_bytes(raw, path, display)
    if cache is not None and signature is not None:
        cache.read_at(path, display, signature, raw)
    return loaded


Signature = tuple[int, int, int, int, int, int]
SETTLED_NS = 2_000_000_000  # a file unchanged this long before it was read is trusted by its signature


def _signature(path: Path) -> Signature | None:
    """What changes whenever a file is written, renamed over or replaced by a link (its status change time
    cannot be set by a program), or None when that is not yet safe to rely on: a file changed in the last
    SETTLED_NS may be written again within the same tick of the file system's clock."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if time.time_ns() - info.st_ctime_ns < SETTLED_NS:
        return None
    return (info.st_dev, info.st_ino, info.st_mode, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


class ParseCache(RebuildMemo[LoadedYaml]):
    """Files parsed in this process, keyed by their path and a hash of their bytes: `duelkit watch` keeps
    one, so a save re-parses only the files whose bytes changed (`parsed` names them, since `start`). A file
    whose signature (`_signature`: inode, size, times) is the one it had when it was last read is not read
    again at all."""

    def __init__(self) -> None:
        super().__init__()
        self.parsed: list[str] = []
        self.signatures: dict[tuple[Path, str], tuple[Signature, tuple[Path, str, bytes]]] = {}

    def start(self) -> None:
        super().start()
        self.parsed = []

    def load(self, raw: bytes, path: Path, display: str) -> LoadedYaml:
        def parse() -> LoadedYaml:
            self.parsed.append(display)
            return _load_yaml_bytes(raw, path, display)

        found = self.get(_key(raw, path, display), parse)
        # the data is shared between rebuilds and never changed by loading; the problem list is the caller's
        return replace(found, problems=list(found.problems))

    def read_at(self, path: Path, display: str, signature: Signature, raw: bytes) -> None:
        """`raw` was read from `path` when it had `signature` (taken before reading: a write during the
        read changes the signature, so that file is read again next time)."""
        self.signatures[(path, display)] = (signature, _key(raw, path, display))

    def unread(self, path: Path, display: str) -> LoadedYaml | None:
        """The file as last parsed when its signature is unchanged since it was read; None: read it."""
        known = self.signatures.get((path, display))
        if known is None:
            return None
        found = self.used.get(known[1]) or self.entries.get(known[1])
        if found is None or _signature(path) != known[0]:
            del self.signatures[(path, display)]
            return None
        self.used[known[1]] = found
        return replace(found, problems=list(found.problems))


def _key(raw: bytes, path: Path, display: str) -> tuple[Path, str, bytes]:
    return (path, display, hashlib.blake2b(raw, digest_size=20).digest())


_PARSE_CACHE: ContextVar[ParseCache | None] = ContextVar("duelkit_parse_cache", default=None)


def parsing_with(cache: ParseCache) -> AbstractContextManager[ParseCache]:
    """Files loaded inside this block are looked up in `cache` first (by the hash of their bytes)."""
    return in_effect(_PARSE_CACHE, cache)


def load_yaml_bytes(raw: bytes, path: Path, display: str) -> LoadedYaml:
    cache = _PARSE_CACHE.get()
    return cache.load(raw, path, display) if cache is not None else _load_yaml_bytes(raw, path, display)


def _load_yaml_bytes(raw: bytes, path: Path, display: str) -> LoadedYaml:
    if len(raw) > MAX_FILE_BYTES:
        empty = SourceFile(path, display, [])
        return LoadedYaml(empty, None, [empty.problem("Y008", None, f"file is {len(raw)} bytes; the limit "
                                                      f"is {MAX_FILE_BYTES} bytes")])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        good = raw[: exc.start].decode("utf-8", errors="replace")
        lines = good.split("\n")
        src = SourceFile(path, display, raw.decode("utf-8", errors="replace").splitlines())
        return LoadedYaml(src, None, [src.problem(
            "Y001", Pos(len(lines), len(lines[-1]) + 1),
            f"byte 0x{raw[exc.start]:02x} is not valid UTF-8",
            hint="save the file as UTF-8 (most editors have an 'encoding' menu)",
            expected="UTF-8 text", found=f"byte 0x{raw[exc.start]:02x}")])
    return parse_yaml_text(text, path, display)


def parse_yaml_text(text: str, path: Path, display: str) -> LoadedYaml:
    source = SourceFile(path, display, text.splitlines())
    if not text.strip() or all(
        not line.strip() or line.lstrip().startswith("#") for line in source.lines
    ):
        return LoadedYaml(source, None, [source.problem(
            "Y005", Pos(1, 1), "the file is empty", hint="delete the file or add a definition to it")])
    direct = _build_direct(text)
    if direct is not None:
        return LoadedYaml(source, direct, [])
    try:
        node = _compose(text)
    except NestingTooDeep as exc:
        return LoadedYaml(source, None, [source.problem(
            "Y007", Pos(exc.mark.line + 1, exc.mark.column + 1),
            f"data is nested more than {MAX_DEPTH} levels deep", hint="flatten the structure")])
    except yaml.MarkedYAMLError as exc:
        return LoadedYaml(source, None, [_syntax_problem(source, exc)])
    except yaml.YAMLError as exc:  # reader errors carry a position of their own
        mark = getattr(exc, "position", None)
        line_pos = _offset_pos(text, mark) if isinstance(mark, int) else None
        character = getattr(exc, "character", None)
        what = _char_name(chr(character)) if isinstance(character, int) else "a character"
        return LoadedYaml(source, None, [source.problem(
            "Y001", line_pos, f"the file contains {what}, which YAML does not allow",
            hint="remove control characters from the file", expected="printable text", found=what)])
    if node is None:
        return LoadedYaml(source, None, [source.problem("Y005", Pos(1, 1), "the file holds no data")])
    builder = _Builder(source)
    size = builder.expanded_size(node)
    if size is None or size > MAX_EXPANDED_NODES:
        return LoadedYaml(source, None, builder.problems or [source.problem(
            "Y006", _pos(node), f"aliases expand to more than {MAX_EXPANDED_NODES} values",
            hint="use fewer nested aliases (&anchor / *alias)")])
    data = builder.build(node)
    if data is None and not builder.problems:
        return LoadedYaml(source, None, [source.problem(
            "Y005", _pos(node), "the file holds only an empty value", hint="add a definition to the file")])
    if not isinstance(data, (LocatedDict, LocatedList)):
        # Every duelkit file is a mapping (or a list the caller reports); a bare value is located here,
        # where its position is still known.
        shown = str(data) if len(str(data)) <= 40 else str(data)[:37] + "..."
        return LoadedYaml(source, None, [*builder.problems, source.problem(
            "S005", _pos(node), f"the file holds a single value ('{shown}'), not a definition",
            hint="a definition is a set of `key: value` lines", expected="a mapping",
            found=type(data).__name__)])
    return LoadedYaml(source, data, builder.problems)


def _build_direct(text: str) -> LocatedDict | LocatedList | None:
    """The values of ordinary text (no anchors, tags, duplicate keys, control characters...), read from
    libyaml's events in one pass (toolkit.yaml_direct); None when the full path must read it."""
    if BACKEND != "libyaml" or _libyaml_differs(text):
        return None
    try:
        parser = yaml.cyaml.CParser(text)  # type: ignore[attr-defined]
        return build_direct(parser.get_event, _PLAIN_TAGS, _FLAGGED, bool(_FLAGGED.search(text)), MAX_DEPTH,
                            MAX_EXPANDED_NODES, "!" in text or "&" in text)
    except (yaml.YAMLError, NotDirect):
        return None


def _compose(text: str) -> Node | None:
    """The root node, composed from libyaml's events when BACKEND says so.

    Text libyaml refuses (bad characters, syntax, depth, aliases, several documents) is composed again
    by the pure-Python parser, whose errors are the ones users see: libyaml words many syntax errors
    differently ("did not find expected key"), and one wording keeps messages the same on every machine.
    So is text libyaml would read differently (_libyaml_differs, ParsersDisagree): it accepts tabs after
    indicators and `|#` headers that PyYAML refuses. Such text is rare and at most MAX_FILE_BYTES long.
    """
    if BACKEND == "libyaml" and not _libyaml_differs(text):
        try:
            # CParser is cyaml's at runtime; the stubs export only the loaders from yaml.cyaml
            parser = yaml.cyaml.CParser(text)  # type: ignore[attr-defined]
            return compose_single_node(parser, _RESOLVER.resolve, MAX_DEPTH)
        except (yaml.YAMLError, NestingTooDeep, ParsersDisagree):
            pass
    loader = _BoundedLoader(text)  # the reader rejects control characters already here
    try:
        return loader.get_single_node()
    finally:
        loader.dispose()


def _offset_pos(text: str, offset: int) -> Pos:
    before = text[:offset]
    return Pos(before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1)


def _syntax_problem(source: SourceFile, exc: yaml.MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    if exc.context_mark and "end of stream" in (exc.problem or ""):
        mark = exc.context_mark  # an unclosed quote or bracket: point at where it was opened
    pos = Pos(mark.line + 1, mark.column + 1) if mark else None
    problem_text = exc.problem or "invalid YAML"
    line = source.lines[pos.line - 1] if pos and 0 < pos.line <= len(source.lines) else ""
    if "\t" in problem_text or (pos and "\t" in line[: pos.column]):
        return source.problem(
            "Y004", pos, "a tab character is used for indentation; YAML allows only spaces",
            hint="replace the tab with spaces", expected="spaces", found="tab")
    context = f" ({exc.context})" if exc.context else ""
    return source.problem("Y002", pos, f"{problem_text}{context}", hint=_syntax_hint(problem_text, line))


_KEY_THEN_COLON = re.compile(r"^(\s*(?:- )?)([\w-]+):\s+(\S.*:(?:\s.*)?)$")


def _syntax_hint(problem_text: str, line: str) -> str:
    """The likeliest fix. `name: Alpha: the First` reads as a mapping inside a value: quote the value."""
    match = _KEY_THEN_COLON.match(line.rstrip())
    if "mapping values are not allowed" in problem_text and match and not match.group(3).startswith(("'", '"')):
        value = match.group(3).replace('"', '\\"')
        return (f"text with ': ' in it must be quoted: write `{match.group(2)}: \"{value}\"`")
    return "check indentation, colons and quotes on this line or the one above"


def _char_name(char: str) -> str:
    names = {"\x00": "NUL", "\t": "tab", "\n": "line break", "\r": "carriage return", "\x1b": "ESC",
             "\x07": "BEL", "\x9b": "CSI"}
    code = f"U+{ord(char):04X}"
    return f"{code} ({names[char]})" if char in names else code


class _Builder:
    """Turns a composed node tree into LocatedDict / LocatedList / plain scalars."""

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        self.problems: list[Problem] = []
        self._constructor = yaml.constructor.SafeConstructor()
        self._built: dict[int, Any] = {}

    def expanded_size(self, root: Node) -> int | None:
        """Values after alias expansion, memoised per node; None for a recursive alias."""
        sizes: dict[int, int] = {}
        visiting: set[int] = set()

        def size(node: Node, depth: int) -> int | None:
            key = id(node)
            if key in sizes:
                return sizes[key]
            if depth > MAX_DEPTH:
                self.problems.append(self.source.problem(
                    "Y007", _pos(node), f"aliases nest the data more than {MAX_DEPTH} levels deep",
                    hint="flatten the structure"))
                return None
            if key in visiting:
                self.problems.append(self.source.problem(
                    "Y006", _pos(node), "an alias refers to the structure that contains it",
                    hint="recursive aliases are not allowed"))
                return None
            visiting.add(key)
            total = 1
            children: list[Node] = []
            if isinstance(node, SequenceNode):
                children = list(node.value)
            elif isinstance(node, MappingNode):
                children = [part for pair in node.value for part in pair]
            for child in children:
                child_size = size(child, depth + 1)
                if child_size is None:
                    return None
                total += child_size
                if total > MAX_EXPANDED_NODES:
                    break
            visiting.discard(key)
            sizes[key] = total
            return total

        return size(root, 1)

    def build(self, node: Node) -> Any:
        """Build each node once: an alias shares the value built for its anchor."""
        key = id(node)
        if key not in self._built:
            self._built[key] = self._build_new(node)
        return self._built[key]

    def _build_new(self, node: Node) -> Any:
        if isinstance(node, MappingNode):
            return self._mapping(node)
        if isinstance(node, SequenceNode):
            if node.tag not in (_SEQ,):
                self._bad_tag(node)
            result = LocatedList(_pos(node))
            for item in node.value:
                result.append(self.build(item))
                result.item_pos.append(_pos(item))
            return result
        return self._scalar(node)

    def _mapping(self, node: MappingNode) -> LocatedDict:
        if node.tag != _MAP:
            self._bad_tag(node)
        result = LocatedDict(_pos(node))
        merged: list[Node] = []
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE:
                merged.extend(value_node.value if isinstance(value_node, SequenceNode) else [value_node])
                continue
            if not isinstance(key_node, ScalarNode):
                self.problems.append(self.source.problem(
                    "Y010", _pos(key_node), "a mapping key must be a plain word or number",
                    hint="write keys like `name:`; lists and mappings cannot be keys"))
                continue
            key = self._scalar(key_node)
            if isinstance(key, (int, float, bool)) or key is None:
                key = key_node.value  # keys are always text in duelkit files
            if key in result.key_pos:
                first = result.key_pos[key]
                self.problems.append(self.source.problem(
                    "Y003", _pos(key_node),
                    f"duplicate key '{key}' (first defined on line {first.line})",
                    hint=f"remove one of the two '{key}' entries (lines {first.line} and {_pos(key_node).line})",
                ))
                continue
            result[key] = self.build(value_node)
            result.key_pos[key] = _pos(key_node)
            result.value_pos[key] = _pos(value_node)
        for source_node in merged:
            if not isinstance(source_node, MappingNode):
                self.problems.append(self.source.problem(
                    "Y009", _pos(source_node), "a merge key (<<) must point at a mapping"))
                continue
            base = self._mapping(source_node)
            for key, value in base.items():
                if key not in result:
                    result[key] = value
                    result.key_pos[key] = base.key_pos[key]
                    result.value_pos[key] = base.value_pos[key]
        return result

    def _scalar(self, node: Node) -> Any:
        tag = node.tag
        if tag == _STR:
            value = node.value
            control = _CONTROL.search(value)
            if control:
                char = control.group()
                self.problems.append(self.source.problem(
                    "Y012", _pos(node), f"text contains the control character {_char_name(char)}",
                    hint="remove it; names and text are printed, and control characters cannot be",
                    expected="text without control characters", found=repr(char)))
            if _INVISIBLE.search(value):
                self.problems.append(self.source.problem(
                    "Y011", _pos(node), "text contains an invisible or bidirectional control character",
                    hint="retype the text; such characters make names look alike or display reversed",
                    severity=Severity.WARNING))
            return value
        if tag not in (_INT, _FLOAT, _BOOL, _NULL) or not isinstance(node, ScalarNode):
            self._bad_tag(node)
            return node.value if isinstance(node, ScalarNode) else None
        scalar = node  # narrowed to ScalarNode for the constructors below
        constructors = {
            _INT: lambda: int(scalar.value.replace("_", ""), 10),
            _FLOAT: lambda: self._constructor.construct_yaml_float(scalar),
            _BOOL: lambda: self._constructor.construct_yaml_bool(scalar),
            _NULL: lambda: None,
        }
        try:
            return constructors[tag]()
        except (ValueError, KeyError, yaml.YAMLError):
            self.problems.append(self.source.problem(
                "Y009", _pos(node), f"'{node.value}' cannot be read as {tag.rsplit(':', 1)[-1]}",
                hint="remove the explicit !!tag or fix the value", found=str(node.value)))
            return node.value

    def _bad_tag(self, node: Node) -> None:
        self.problems.append(self.source.problem(
            "Y009", _pos(node), f"unsupported YAML tag '{node.tag}'",
            hint="duelkit data uses plain text, numbers, true/false, lists and mappings only",
            found=str(node.tag)))
