"""Load and validate a sword-duel data folder (`techniques/`), and run the design linter on it.

Layout: `techniques/*.yaml` (one technique per file, or many under `techniques:`), and
`techniques/kits/`: draft decks (`id, name, techniques: [10 ids]`) and `builds.yaml` (`builds: [...]`).
"""

from __future__ import annotations

from pathlib import Path

from toolkit.loading import Located, display_path, documents, index_by_id, load_kind, yaml_files
from toolkit.problems import Problem, Severity
from toolkit.schema import validate_model
from toolkit.sword import constants
from toolkit.sword.context import SwordDatabase
from toolkit.sword.model import Build, Draft, Technique
from toolkit.sword.rules.lint import LintFinding, lint_draft, lint_technique
from toolkit.yamlsource import load_yaml_file

KITS_DIR = "kits"
BUILDS_FILE = "builds.yaml"


def has_sword_data(root: Path) -> bool:
    """Any YAML under techniques/ (techniques, drafts or builds) makes a folder hold sword-duel data."""
    problems: list[Problem] = []
    return bool(yaml_files(root / "techniques", root=root, problems=problems) or problems)


def load_sword(root: Path) -> SwordDatabase:
    """Every problem at once: schema, references, draft size, builds, and lint warnings."""
    folder = root / "techniques"
    problems: list[Problem] = []
    technique_files = yaml_files(folder, skip_dir=KITS_DIR, root=root, problems=problems)
    techniques = index_by_id(load_kind(technique_files, Technique, "techniques", problems), "technique", problems)
    kit_files = yaml_files(folder / KITS_DIR, root=root, problems=problems)
    builds_file = folder / KITS_DIR / BUILDS_FILE
    drafts = index_by_id(load_kind([f for f in kit_files if f != builds_file], Draft, "drafts", problems),
                    "draft", problems)
    builds = _load_builds(builds_file, problems) if builds_file in kit_files else {}
    db = SwordDatabase({tid: entry.value for tid, entry in techniques.items()},
                       next(iter(drafts.values())).value if drafts else None, builds, problems, techniques)
    for entry in drafts.values():
        _check_draft(entry, techniques, problems)
    _lint(techniques, drafts, problems)
    if any(entry.value.art for entry in techniques.values()):  # Pillow is loaded only for a project with art
        from toolkit.pictures import read_entry_art

        db.art, found = read_entry_art(root, techniques.items())
        problems += found
    db.problems = sorted(problems, key=Problem.sort_key)
    return db


def _load_builds(path: Path, problems: list[Problem]) -> dict[str, Build]:
    loaded = load_yaml_file(path, display_path(path))
    problems.extend(loaded.problems)
    if loaded.data is None:
        return {}
    builds: dict[str, Build] = {}
    for data, where in documents(loaded.data, loaded.source, "builds", problems):
        build, found = validate_model(Build, data, loaded.source, where)
        problems.extend(found)
        if build is None:
            continue
        low, high = constants.ATTRIBUTE_MIN, constants.ATTRIBUTE_MAX
        values = {"speed": build.speed, "strength": build.strength, "defense": build.defense}
        for name, value in values.items():
            if not low <= value <= high:
                problems.append(loaded.source.problem(
                    "T004", _pos(data, name), f"build '{build.id}': {name} is {value}; each attribute is {low}-{high}",
                    expected=f"{low}..{high}", found=str(value)))
        if sum(values.values()) != constants.BUILD_TOTAL:
            problems.append(loaded.source.problem(
                "T004", data.pos, f"build '{build.id}': Speed + Strength + Defense is {sum(values.values())}, "
                f"not {constants.BUILD_TOTAL}", expected=str(constants.BUILD_TOTAL), found=str(sum(values.values())),
                hint="move points between the attributes"))
        builds[build.id] = build
    return dict(sorted(builds.items()))


def _pos(data, key):
    return data.value_pos.get(key, data.pos)


def _check_draft(entry: Located[Draft], techniques: dict[str, Located[Technique]], problems: list[Problem]) -> None:
    draft = entry.value
    if len(draft.techniques) != constants.DRAFT_SIZE:
        problems.append(entry.source.problem(
            "T001", entry.pos("techniques"), f"draft '{draft.id}' has {len(draft.techniques)} technique cards; "
            f"the draft procedure deals exactly {constants.DRAFT_SIZE}", expected=str(constants.DRAFT_SIZE),
            found=str(len(draft.techniques)),
            hint="remove 1, pick 1, pick 1 and discard 2, pick 1 and discard 1, pick 1 and discard the rest (2)"))
    seen: set[str] = set()
    for index, tid in enumerate(draft.techniques):
        if tid not in techniques:
            problems.append(entry.source.problem(
                "T002", entry.pos("techniques", index), f"draft '{draft.id}' names unknown technique '{tid}'",
                hint="use an id from techniques/"))
        if tid in seen:
            problems.append(entry.source.problem(
                "T003", entry.pos("techniques", index), f"draft '{draft.id}' lists '{tid}' twice"))
        seen.add(tid)


def _lint(techniques: dict[str, Located[Technique]], drafts: dict[str, Located[Draft]],
          problems: list[Problem]) -> None:
    findings: list[LintFinding] = []
    for entry in techniques.values():
        findings += lint_technique(entry.value)
    for draft in drafts.values():
        deck = [techniques[tid].value for tid in draft.value.techniques if tid in techniques]
        findings += lint_draft(deck)
        if len(techniques) != constants.DRAFT_SIZE and len(draft.value.techniques) == constants.DRAFT_SIZE:
            problems.append(draft.source.problem(
                "L005", draft.pos("techniques", key=True),
                f"spec 002 deals {constants.DRAFT_SIZE} technique cards but this folder has {len(techniques)} "
                f"techniques: "
                f"draft '{draft.value.id}' picks which {constants.DRAFT_SIZE} are played",
                hint="a note, not an error: the spec contradicts itself (10 cards, 12 samples)",
                severity=Severity.WARNING))
    reported: set[tuple[str, str]] = set()
    for finding in findings:
        if (finding.technique, finding.message) in reported:
            continue
        reported.add((finding.technique, finding.message))
        entry = techniques[finding.technique]
        if finding.on_evade:
            pos = entry.pos("evade")
        elif finding.effect is not None:
            pos = entry.pos("effects", finding.effect)
        else:
            pos = entry.pos("id")
        problems.append(entry.source.problem(finding.code, pos, finding.message, hint=finding.hint,
                                             severity=Severity.WARNING))
