"""Each command loads only what it uses: `--version` and `--help` start without the games or reportlab,
and the one-line help `duelkit --help` lists is the one each command's own parser gives."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from toolkit.cli import COMMANDS, build_parser


def _loaded_after(*argv: str) -> set[str]:
    """The modules a fresh interpreter has loaded after running `duelkit ARGV` (which exits)."""
    code = ("import sys\nfrom toolkit.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True)
    return set(result.stderr.split())


@pytest.mark.parametrize("argv", [["--version"], ["--help"]])
def test_version_and_help_load_neither_the_games_nor_the_renderer(argv: list[str]) -> None:
    loaded = _loaded_after(*argv)
    assert "toolkit.cli" in loaded
    heavy = {name for name in loaded if name.split(".")[0] in {"reportlab", "pikepdf", "pydantic", "networkx"}
             or name in {"toolkit.registry", "toolkit.cli.common", "toolkit.output"}}
    assert heavy == set()


def test_validate_does_not_load_the_pdf_writer() -> None:
    loaded = _loaded_after("validate", "--help")
    assert "toolkit.cli.validate" in loaded
    assert "toolkit.cli.build" not in loaded
    assert not {"toolkit.output", "toolkit.render.pdf", "pikepdf"} & loaded


def test_the_listed_help_is_each_commands_own() -> None:
    parser = build_parser()
    (commands,) = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    own = {choice.dest: choice.help for choice in commands._choices_actions}
    assert own == {name: help_text for name, (_, help_text) in COMMANDS.items()}


def test_validating_a_project_loads_no_pdf_writer_graph_library_or_importer(tmp_path) -> None:
    """`validate` of a project without art: no PDF writer or assembler, no graph library, no spreadsheet
    importer, no SVG or picture reader of its own, and no reportlab, Pillow or bidi: the text-fit check measures
    the shipped fonts from their metrics table (issue 28: start-up is most of a small validate)."""
    from toolkit.cli import main

    project = tmp_path / "game"
    assert main(["new", str(project)]) == 0
    loaded = _loaded_after("validate", str(project))
    assert "toolkit.figure.database" in loaded  # the project was loaded and checked
    assert "toolkit.figure.kit.schematics" in loaded  # the cards were laid out (the text-fit check ran)
    heavy = {name for name in loaded if name.split(".")[0] in {"pikepdf", "networkx", "openpyxl", "svglib",
                                                                 "pypdfium2", "fontTools", "reportlab", "PIL",
                                                                 "bidi"}
             or name in {"toolkit.figure.sheets.foreign", "toolkit.render.pdf", "toolkit.render.assemble",
                         "toolkit.figure.kit.build", "toolkit.figure.kit.manual"}}
    assert heavy == set()


@pytest.mark.parametrize("own", [None, "some_plugin"])
def test_a_duelkit_process_leaves_pydantic_plugins_off_unless_the_user_chose(tmp_path, own: str | None) -> None:
    """pydantic scans every installed distribution for plugins when it builds its first validator (a definition
    with a problem): a duelkit process switches them off by pydantic's documented variable, unless it is set."""
    import os

    (tmp_path / "bad.yaml").write_text("id: [", encoding="utf-8")
    code = ("import os, sys\nfrom toolkit.cli import main\nsys.argv = ['duelkit', 'validate', sys.argv[1]]\n"
            "main()\nprint(os.environ.get('PYDANTIC_DISABLE_PLUGINS'), file=sys.stderr)")
    env = {key: value for key, value in os.environ.items() if key != "PYDANTIC_DISABLE_PLUGINS"}
    if own is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = own
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, env=env,
                            check=False)
    assert result.stderr.splitlines()[-1] == (own or "__all__")
