"""Rules across units: upgrade chains and squads (pure; positions are added by the validator)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import networkx as nx

from toolkit.figure import constants
from toolkit.figure.model import Squad, Unit


def upgrade_graph(units: Mapping[str, Unit]) -> nx.DiGraph[str]:
    """Edges base -> upgraded form, for targets that exist."""
    graph: nx.DiGraph[str] = nx.DiGraph()
    graph.add_nodes_from(sorted(units))
    graph.add_edges_from(
        (uid, unit.upgrades_to) for uid, unit in sorted(units.items())
        if unit.upgrades_to is not None and unit.upgrades_to in units
    )
    return graph


def upgrade_cycles(units: Mapping[str, Unit]) -> list[list[str]]:
    """Each cycle once, rotated to start at its smallest id."""
    cycles = []
    for cycle in nx.simple_cycles(upgrade_graph(units)):
        start = cycle.index(min(cycle))
        cycles.append(cycle[start:] + cycle[:start])
    return sorted(cycles)


def looping_units(units: Mapping[str, Unit]) -> set[str]:
    """Units with no upgrade stage: on an upgrade cycle, or upgraded into from one (validation reports
    the cycle as X003; odds and balance leave these units out and keep working for the rest)."""
    graph = upgrade_graph(units)
    looping: set[str] = set()
    for component in nx.strongly_connected_components(graph):
        node = next(iter(component))
        if len(component) > 1 or graph.has_edge(node, node):
            looping |= component
    for node in list(looping):
        looping |= nx.descendants(graph, node)
    return looping


def upgrade_stages(units: Mapping[str, Unit]) -> dict[str, int]:
    """Each unit's stage: 0 for a base form, 1 for its first upgrade, ... (the longest chain leading to it).
    Units on or after an upgrade cycle have no stage and are left out (see `looping_units`)."""
    graph = upgrade_graph(units)
    graph.remove_nodes_from(looping_units(units))
    stages: dict[str, int] = {}
    for node in nx.topological_sort(graph):
        stages[node] = max((stages[parent] + 1 for parent in graph.predecessors(node)), default=0)
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
