"""What `duelkit import` tells the designer: skipped figures, warnings and notes (standard error), then
what changed in the project (standard output), item by item with `--dry-run`."""

from __future__ import annotations

from pathlib import Path

from toolkit.figure.sheets.convert import Reading
from toolkit.figure.sheets.project import SKIPPED_FILE, ImportPlan
from toolkit.game import Report
from toolkit.report import counted

MAX_CHANGES_SHOWN = 8  # changed fields listed per item by --dry-run


def import_report(sheet: Path, out: Path, reading: Reading, plan: ImportPlan, dry_run: bool) -> Report:
    foreign = reading.foreign
    skipped = foreign.skipped if foreign is not None else []
    report = Report(failed=bool(skipped or plan.conflicts))
    for figure in skipped:
        for row in figure.rows:
            report.notes.append(f"{sheet}:{row.line}: skipped '{figure.name}': column '{row.column}' = "
                                f"{row.value!r}: {row.reason}")
    for row in reading.warnings:
        report.notes.append(f"{sheet}:{row.line}: warning: column '{row.column}' = {row.value!r}: {row.reason}")
    report.notes += reading.notes
    for label in plan.conflicts:
        report.notes.append(f"conflict: {label}: {out / plan.files_of.get(label, '?')} was edited by hand since the "
                            "last import and its sheet rows changed (or were removed): the file was kept; to take "
                            "the sheet's version, delete the file and import again")
    verb = "would write" if dry_run else "wrote"
    units = sum(1 for label in (*plan.added, *plan.updated) if " " not in label)
    report.lines.append(f"read {counted(reading.rows_read, 'row')} from {sheet.name}: {verb} {counted(units, 'unit')} "
                        f"to {out}, skipped {counted(len(skipped), 'figure')} "
                        f"({counted(len(plan.changed), 'file')} changed)")
    gone = "deleted" if plan.delete else "not in the sheet, kept (--delete deletes them)"
    changes = [f"{len(plan.added)} added", f"{len(plan.updated)} updated", f"{len(plan.removed)} {gone}"]
    if plan.kept:
        changes.append(f"{len(plan.kept)} edited by hand and kept (their sheet rows did not change)")
    if plan.conflicts:
        changes.append(f"{len(plan.conflicts)} conflicts kept as edited")
    if plan.settings_changed:
        changes.append("the project's settings (duelkit.yaml) updated")
    report.lines.append("items: " + ", ".join(changes))
    report.lines += _listing(plan, dry_run)
    if dry_run:
        report.lines.append("nothing was written (--dry-run)")
        return report
    if skipped:
        report.lines.append(f"the skipped figures' cells are listed in {out / SKIPPED_FILE}")
    report.lines.append(f"next: `duelkit validate {out}` lists what breaks the rules")
    return report


def _listing(plan: ImportPlan, dry_run: bool) -> list[str]:
    """Item by item: everything with --dry-run (each update with the fields it changes), else the items
    missing from the sheet that were kept."""
    groups: tuple[tuple[str, list[str]], ...]
    if dry_run:
        groups = (("add", plan.added), ("update", plan.updated), ("delete" if plan.delete else "not in the sheet",
                  plan.removed), ("keep (edited by hand)", plan.kept), ("conflict", plan.conflicts))
    else:
        groups = (("not in the sheet", [] if plan.delete else plan.removed),)
    lines = []
    for label, ids in groups:
        for item in ids:
            lines.append(f"  {label}: {item}")
            changes = plan.changes.get(item, []) if label == "update" else []
            lines += [f"      {change}" for change in changes[:MAX_CHANGES_SHOWN]]
            if len(changes) > MAX_CHANGES_SHOWN:
                lines.append(f"      and {len(changes) - MAX_CHANGES_SHOWN} more")
    return lines
