"""One exception family: every public exception class of the package derives from `DuelkitError`, so a
caller (and the command line) catches one root; a sword rules error may also be a `ValueError`."""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

import pytest

from toolkit.errors import DuelkitError, UsageError

PACKAGE = Path(__file__).resolve().parents[1] / "toolkit"
OPTIONAL = ("ray",)  # extras that may be missing: a module needing one is skipped, not failed


def _public_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if name.endswith("__main__"):
            continue
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            missing = (exc.name or "").split(".")[0]
            if missing not in OPTIONAL:
                raise
            continue
        for attr, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == name
                    and not attr.startswith("_")):
                found[f"{name}.{attr}"] = value
    return found


def test_every_public_exception_has_the_one_root() -> None:
    found = _public_exceptions()
    assert len(found) >= 20  # the walk really saw the package's exceptions
    strays = sorted(name for name, cls in found.items() if not issubclass(cls, DuelkitError))
    assert strays == []
    # the old separate roots are now members of the family
    for name in ("toolkit.safe_fs.FileProblem", "toolkit.render.fonts.FontFileError", "toolkit.kit.plan.PlanError",
                 "toolkit.figure.kit.html_manual.TemplateFileError", "toolkit.yaml_events.NestingTooDeep",
                 "toolkit.yaml_events.ParsersDisagree", "toolkit.sword.rules.state.SwordRulesError"):
        assert issubclass(found[name], DuelkitError), name
    assert issubclass(found["toolkit.sword.rules.state.SwordRulesError"], ValueError)
    assert issubclass(UsageError, DuelkitError)


def test_a_file_problem_reaching_the_command_line_is_a_message_not_an_internal_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """FileProblem used to have its own root: one that escaped a command was 'internal error', exit 70."""
    import toolkit.cli as cli
    import toolkit.cli.validate as validate
    from toolkit.safe_fs import FileProblem

    def unreadable(_args: object) -> int:
        raise FileProblem("F003", tmp_path / "x.yaml", "cannot read: gone")

    monkeypatch.setattr(validate, "run", unreadable)
    assert cli.main(["validate", str(tmp_path)]) == 1
    printed = capsys.readouterr().err
    assert "cannot read: gone" in printed
    assert "internal error" not in printed
