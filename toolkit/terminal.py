"""Make text safe to show on a terminal: the one filter every line the command line prints goes through.

Names, ids, file names and quoted source lines come from untrusted files. A raw ESC, BEL, CSI (0x9b) or
carriage return in them could recolour, retitle or rewrite the user's terminal, and a bidi override
could make text read backwards; so every control character except the line break is shown escaped:

- C0 controls (NUL ... US, tab and carriage return included) as `\\x1b` style escapes;
- DEL, C1 controls (0x80-0x9f), line/paragraph separators and the invisible or bidirectional
  format characters as `\\u009b` style escapes;
- lone surrogates as `\\udc9b` style escapes: a byte that is not UTF-8 (a raw 8-bit C1 control typed
  at a prompt, a file name) is read as one (Python's surrogateescape), and printing it would write the
  raw byte back to the terminal. With `ensure_ascii=False` JSON leaves exactly these
  characters raw, and `\\uXXXX` is also a JSON escape: filtered JSON stays valid and decodes to the
  same text, so JSON output needs no second filter.
"""

from __future__ import annotations

import re

# Characters a terminal would act on, or that change how the text around them is displayed.
_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff"
                     "\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x20 else f"\\u{code:04x}"


class SafeText(str):
    """Text made only of `terminal_safe` pieces (a problem report): the filter passes it on as it is, as a
    second pass over a 1 MB report would change nothing. Joining it with a plain str gives a plain str,
    which is filtered again."""


def terminal_safe(text: str) -> str:
    """`text` with every control character except the line break escaped (see the module docstring)."""
    if type(text) is SafeText or _UNSAFE.search(text) is None:  # most text: one scan, no copy
        return text
    return _UNSAFE.sub(_escape, text)


def one_line(text: str) -> str:
    """`text` (a file name, say) for a place in a line: escaped like `terminal_safe`, line breaks too, so a
    name cannot start a line of its own that looks like duelkit's output."""
    return terminal_safe(text).replace("\n", "\\x0a")
