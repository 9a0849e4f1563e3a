"""Rules across units: upgrade chains and squads (pure; positions are added by the validator)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toolkit.figure import constants
from toolkit.figure.model import Squad, Unit

# Each unit names at most one upgraded form, so the upgrade chains form a functional graph: following
# `upgrades_to` from a unit is the whole walk, cycles included, and no graph library is needed (this keeps
# networkx off the `validate` path).


def _next_form(units: Mapping[str, Unit], uid: str) -> str | None:
    target = units[uid].upgrades_to
    return target if target is not None and target in units else None


def upgrade_cycles(units: Mapping[str, Unit]) -> list[list[str]]:
    """Each cycle once, rotated to start at its smallest id."""
    cycles: list[list[str]] = []
    finished: set[str] = set()
    for start in sorted(units):
        path: list[str] = []
        on_path: dict[str, int] = {}
        node: str | None = start
        while node is not None and node not in finished and node not in on_path:
            on_path[node] = len(path)
            path.append(node)
            node = _next_form(units, node)
        if node is not None and node in on_path:
            cycle = path[on_path[node]:]
            first = cycle.index(min(cycle))
            cycles.append(cycle[first:] + cycle[:first])
        finished.update(path)
    return sorted(cycles)


def looping_units(units: Mapping[str, Unit]) -> set[str]:
    """Units with no upgrade stage: on an upgrade cycle, or upgraded into from one (validation reports
    the cycle as X003; odds and balance leave these units out and keep working for the rest)."""
    looping: set[str] = set()
    for cycle in upgrade_cycles(units):
        looping.update(cycle)
    changed = True
    while changed:  # what a looping unit upgrades into loops too (a chain leaving a cycle is short)
        changed = False
        for uid in sorted(looping):
            target = _next_form(units, uid)
            if target is not None and target not in looping:
                looping.add(target)
                changed = True
    return looping


def upgrade_stages(units: Mapping[str, Unit]) -> dict[str, int]:
    """Each unit's stage: 0 for a base form, 1 for its first upgrade, ... (the longest chain leading to it).
    Units on or after an upgrade cycle have no stage and are left out (see `looping_units`)."""
    looping = looping_units(units)
    parents: dict[str, list[str]] = {uid: [] for uid in units if uid not in looping}
    for uid in sorted(parents):
        target = _next_form(units, uid)
        if target is not None and target in parents:
            parents[target].append(uid)
    stages: dict[str, int] = {}

    def stage(uid: str) -> int:
        # iterative: a chain may be as long as the database, past Python's recursion limit
        pending = [uid]
        while pending:
            node = pending[-1]
            waiting = [parent for parent in parents[node] if parent not in stages]
            if waiting:
                pending.extend(waiting)
                continue
            pending.pop()
            stages[node] = max((stages[parent] + 1 for parent in parents[node]), default=0)
        return stages[uid]

    for uid in sorted(parents):
        stage(uid)
    return dict(sorted(stages.items()))


def upgrade_stage(units: Mapping[str, Unit], unit_id: str) -> int:
    return upgrade_stages(units)[unit_id]


@dataclass(frozen=True)
class SquadFinding:
    code: str
    message: str
    field: str  # "units" or "modules"
    index: int | None = None  # the offending list item, or None for the list as a whole


def squad_findings(squad: Squad, unit_ids: set[str], module_ids: set[str]) -> list[SquadFinding]:
    findings = []
    if len(squad.units) != constants.SQUAD_UNITS:
        findings.append(SquadFinding(
            "X006", f"squad '{squad.id}' has {len(squad.units)} units; a squad is {constants.SQUAD_UNITS}", "units"))
    if len(squad.modules) > constants.SQUAD_MAX_MODULES:
        findings.append(SquadFinding(
            "X009", f"squad '{squad.id}' has {len(squad.modules)} modules; the limit is {constants.SQUAD_MAX_MODULES}",
            "modules"))
    for kind, ids, known, code in (("unit", squad.units, unit_ids, "X004"),
                                   ("module", squad.modules, module_ids, "X005")):
        seen: set[str] = set()
        for index, ref in enumerate(ids):
            if ref not in known:
                findings.append(SquadFinding(code, f"squad '{squad.id}' names unknown {kind} '{ref}'",
                                             kind + "s", index))
            if ref in seen:
                findings.append(SquadFinding("X008", f"squad '{squad.id}' lists {kind} '{ref}' twice",
                                             kind + "s", index))
            seen.add(ref)
    return findings
