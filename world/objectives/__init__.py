"""Objectives judged from the world's own state, mission end, and scoring.

`install(world)` adds the objectives system to a world and returns it;
`report(world)` (or `system.report(world)`) gives the frozen `MissionReport` (outcome,
score, progress, per-objective status).
"""

from world.objectives.base import DONE, FAILED, STATUSES, TODO, Verifier, WorldView
from world.objectives.outcome import END_RULES, OUTCOMES
from world.objectives.registry import VERIFIERS, make_verifier
from world.objectives.score import MissionReport, ObjectiveReport
from world.objectives.system import ObjectivesSystem, install, installed, report

__all__ = [
    "DONE",
    "END_RULES",
    "FAILED",
    "OUTCOMES",
    "STATUSES",
    "TODO",
    "VERIFIERS",
    "MissionReport",
    "ObjectiveReport",
    "ObjectivesSystem",
    "Verifier",
    "WorldView",
    "install",
    "installed",
    "make_verifier",
    "report",
]
