"""Perception: view cones, darkness and hearing, computed for many observers at once.

The geometric tests (range and cone) run as numpy expressions over every observer that
thinks this tick; only the few observers that pass them pay for a line-of-sight query
against the world's walls (windows let sight through, walls and closed doors do not).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# Anyone this close is noticed even in the dark and outside the cone: a hand's reach.
NEAR_SENSE = 120.0
# A silenced weapon carries this fraction of the usual hearing distance.
SILENCED_FACTOR = 0.25
# Heights further apart than this count as different floors for sight and hearing.
STOREY_GAP = 150.0


@dataclass(frozen=True)
class Observers:
    """Eyes and ears of a group of observers, as parallel arrays.

    Attributes:
        x: Ground x of each observer.
        z: Ground z of each observer.
        y: Height of each observer.
        facing: Heading in radians.
        cos_half: Cosine of half the view angle (-1 for all-round sight).
        view_range: Sight range in full light, difficulty applied.
        hearing_range: Distance at which unsilenced gunfire is heard.
    """

    x: np.ndarray
    z: np.ndarray
    y: np.ndarray
    facing: np.ndarray
    cos_half: np.ndarray
    view_range: np.ndarray
    hearing_range: np.ndarray

    @classmethod
    def build(cls, rows: list[tuple[float, float, float, float, float, float, float]]) -> Observers:
        """Pack (x, z, y, facing, view_angle_deg, view_range, hearing_range) rows.

        Args:
            rows: One tuple per observer.

        Returns:
            The observers as arrays (empty arrays when there are no rows).
        """
        data = np.array(rows, dtype=float).reshape(-1, 7)
        half = np.radians(np.minimum(data[:, 4], 360.0)) / 2.0
        cos_half = np.where(data[:, 4] >= 360.0, -1.0, np.cos(half))
        return cls(data[:, 0], data[:, 1], data[:, 2], data[:, 3], cos_half, data[:, 5],
                   data[:, 6])


def cone_candidates(
    eyes: Observers, tx: float, ty: float, tz: float, light: float
) -> tuple[np.ndarray, np.ndarray]:
    """Which observers could see a target, before walls are considered.

    Args:
        eyes: The observers.
        tx: Target ground x.
        ty: Target height.
        tz: Target ground z.
        light: Light of the target's area (1 fully lit); it shortens the view range.

    Returns:
        A boolean mask of observers with the target in range and inside the cone (or
        within `NEAR_SENSE`), and the distance fraction (distance over effective range)
        for every observer.
    """
    dx = tx - eyes.x
    dz = tz - eyes.z
    dist = np.hypot(dx, dz)
    reach = eyes.view_range * light
    same_floor = np.abs(eyes.y - ty) <= STOREY_GAP
    safe = np.maximum(dist, 1e-9)
    cos_to = (np.cos(eyes.facing) * dx + np.sin(eyes.facing) * dz) / safe
    in_cone = (cos_to >= eyes.cos_half) & (dist <= reach)
    mask = same_floor & (in_cone | (dist <= NEAR_SENSE))
    fraction = np.where(reach > 0, dist / np.maximum(reach, 1e-9), 1.0)
    return mask, np.minimum(fraction, 1.0)


def hearers(ears: np.ndarray, shots: np.ndarray) -> np.ndarray:
    """Which listeners hear which shots (walls do not stop sound).

    Args:
        ears: An (n, 4) array of listeners: x, y (height), z and hearing range.
        shots: A (k, 4) array of shots: x, y (height), z, and 1 for a silenced weapon.

    Returns:
        A (k, n) boolean matrix: entry [j, i] means listener i hears shot j.
    """
    ears = np.asarray(ears, dtype=float).reshape(-1, 4)
    shots = np.asarray(shots, dtype=float).reshape(-1, 4)
    factor = np.where(shots[:, 3] > 0, SILENCED_FACTOR, 1.0)
    reach = ears[None, :, 3] * factor[:, None]
    dist2 = (
        (ears[None, :, 0] - shots[:, 0:1]) ** 2
        + (ears[None, :, 1] - shots[:, 1:2]) ** 2
        + (ears[None, :, 2] - shots[:, 2:3]) ** 2
    )
    return dist2 <= reach * reach


def pairwise_visible_candidates(eyes: Observers, light: np.ndarray) -> np.ndarray:
    """For arena fights: which observer could see which other, before walls.

    Args:
        eyes: The observers, who are also the targets.
        light: Light of each observer's area, as a target.

    Returns:
        An (n, n) boolean matrix; entry [i, j] means i could see j. The diagonal is False.
    """
    dx = eyes.x[None, :] - eyes.x[:, None]
    dz = eyes.z[None, :] - eyes.z[:, None]
    dist = np.hypot(dx, dz)
    safe = np.maximum(dist, 1e-9)
    cos_to = (np.cos(eyes.facing)[:, None] * dx + np.sin(eyes.facing)[:, None] * dz) / safe
    reach = eyes.view_range[:, None] * light[None, :]
    in_cone = (cos_to >= eyes.cos_half[:, None]) & (dist <= reach)
    same_floor = np.abs(eyes.y[:, None] - eyes.y[None, :]) <= STOREY_GAP
    seen = same_floor & (in_cone | (dist <= NEAR_SENSE))
    np.fill_diagonal(seen, False)
    return seen


def heading(from_x: float, from_z: float, to_x: float, to_z: float) -> float:
    """The heading in radians from one ground point toward another."""
    return math.atan2(to_z - from_z, to_x - from_x)
