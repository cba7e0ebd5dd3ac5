"""Navigation meshes: building, point location and exact shortest paths."""

from world.navmesh.locate import PointLocator
from world.navmesh.mesh import NavMesh
from world.navmesh.polyanya_format import Scenario, read_mesh, read_scenarios
from world.navmesh.query import Path, PathFinder

__all__ = [
    "NavMesh",
    "Path",
    "PathFinder",
    "PointLocator",
    "Scenario",
    "read_mesh",
    "read_scenarios",
]
