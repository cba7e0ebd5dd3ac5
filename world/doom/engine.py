"""One ViZDoom game in synchronous mode: seeded, no window, advanced one tic at a time.

The engine is the only module that touches ViZDoom. It starts a scenario (its .cfg from
the package's scenarios folder) or a map of an IWAD, with the skill and seed given,
and after every tic reads what the rest of the Doom world needs into a frozen
`Snapshot`: the player's position, angle and counters, the objects and the sectors'
live heights. Controls are the delta buttons (forward, strafe, turn in degrees) plus
attack and use, so a tic's input is exact, and the weapon slot buttons (`equip`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import vizdoom as vzd

from world.doom.files import played_files

TICS_PER_SECOND = 35  # Doom's own clock

_BUTTONS = (vzd.Button.MOVE_FORWARD_BACKWARD_DELTA, vzd.Button.MOVE_LEFT_RIGHT_DELTA,
            vzd.Button.TURN_LEFT_RIGHT_DELTA, vzd.Button.ATTACK, vzd.Button.USE,
            *(getattr(vzd.Button, f"SELECT_WEAPON{n}") for n in range(1, 8)))
SLOTS = 7  # weapon slots 1 (fist, chainsaw) to 7 (BFG); `select` presses one of them
_GV = vzd.GameVariable
# Game variables read every tic, in this order (names are Snapshot.counters' keys).
VARIABLES = ("HEALTH", "ARMOR", "KILLCOUNT", "ITEMCOUNT", "SECRETCOUNT", "DEAD",
             "POSITION_X", "POSITION_Y", "POSITION_Z", "ANGLE", "SELECTED_WEAPON",
             "SELECTED_WEAPON_AMMO", "AMMO2", "AMMO3", "AMMO5", "AMMO6", "WEAPON2", "WEAPON3",
             "WEAPON4", "WEAPON5", "WEAPON6", "WEAPON7")


@dataclass(frozen=True)
class Thing:
    """One object of the map as the engine lists it."""

    id: int
    name: str
    category: str
    x: float
    y: float
    z: float
    angle: float


class Snapshot:
    """Everything read from the engine after one tic.

    The things are turned into `Thing`s only when asked for: a walk reads the player's
    position every tic but the things only now and then, and E1M1 has hundreds.
    """

    def __init__(self, tic: int, finished: bool, counters: dict[str, float],
                 things: Any, floors: tuple[float, ...], ceilings: tuple[float, ...]) -> None:
        self.tic, self.finished, self.counters = tic, finished, counters
        self._things = things
        self.floors, self.ceilings = floors, ceilings

    @functools.cached_property
    def things(self) -> tuple[Thing, ...]:
        """The map's things, by engine id."""
        if isinstance(self._things, tuple):
            return self._things
        return tuple(sorted(
            (Thing(o.id, o.name, str(o.category), float(o.position_x), float(o.position_y),
                   float(o.position_z), float(o.angle)) for o in self._things),
            key=lambda t: t.id))

    def thing(self, tid: int) -> Thing | None:
        """One thing by engine id, without turning the others into `Thing`s."""
        if isinstance(self._things, tuple) or "things" in self.__dict__:
            return next((t for t in self.things if t.id == tid), None)
        for o in self._things:
            if o.id == tid:
                return Thing(o.id, o.name, str(o.category), float(o.position_x),
                             float(o.position_y), float(o.position_z), float(o.angle))
        return None

    @property
    def xy(self) -> tuple[float, float]:
        """The player's ground position."""
        return (self.counters["POSITION_X"], self.counters["POSITION_Y"])

    @property
    def angle(self) -> float:
        """The player's heading in degrees (0 along +x, counter-clockwise)."""
        return self.counters["ANGLE"]

    @property
    def dead(self) -> bool:
        """Whether the player is dead."""
        return self.counters["DEAD"] > 0


@dataclass(frozen=True)
class EngineSpec:
    """What to start: a scenario by name, or an IWAD and a map; the skill; the tic cap."""

    scenario: str | None
    iwad: str | None
    map: str | None
    skill: int
    timeout_tics: int


class Engine:
    """A running game; `step` advances one tic and returns the new snapshot."""

    def __init__(self, spec: EngineSpec, seed: int) -> None:
        game = vzd.DoomGame()
        # The very files a mission's content hash covers (world/doom/files.py).
        files = played_files(spec.scenario, spec.iwad)
        if spec.scenario is not None:
            wad, cfg, game_data = files
            game.load_config(str(cfg))
            game.set_doom_scenario_path(str(wad))
            game.set_doom_game_path(str(game_data))
        else:
            game.set_doom_game_path(str(files[0]))
            game.set_doom_map(str(spec.map))
        game.set_doom_skill(spec.skill)
        game.set_window_visible(False)
        game.set_mode(vzd.Mode.PLAYER)
        game.set_screen_format(vzd.ScreenFormat.GRAY8)
        game.set_screen_resolution(vzd.ScreenResolution.RES_160X120)
        game.set_render_hud(False)
        game.set_sound_enabled(False)
        game.set_console_enabled(False)
        game.set_sectors_info_enabled(True)
        game.set_objects_info_enabled(True)
        game.set_available_buttons(list(_BUTTONS))
        game.set_available_game_variables([getattr(_GV, v) for v in VARIABLES])
        game.set_episode_timeout(spec.timeout_tics)
        game.set_living_reward(0.0)
        # ViZDoom takes a 32-bit seed; an episode key is wider, so it is folded to 32 bits.
        game.set_seed(seed % 2**32)
        game.add_game_args("+vizdoom_nocheat 1")
        game.init()
        self.game = game
        self.snap = self._read()
        self.sector_lines = [
            [(ln.x1, ln.y1, ln.x2, ln.y2, ln.is_blocking) for ln in s.lines]
            for s in game.get_state().sectors]

    def step(self, forward: float = 0.0, strafe: float = 0.0, turn: float = 0.0,
             attack: bool = False, use: bool = False, select: int = 0) -> Snapshot:
        """Advance one tic with this input; turn is degrees counter-clockwise.

        `select` presses weapon slot 1 to 7 this tic (0: none); Doom lowers the gun in
        hand and raises that slot's over the next tics.
        """
        if not self.snap.finished:
            slots = [float(select == n) for n in range(1, SLOTS + 1)]
            # The turn delta button turns clockwise for positive values.
            self.game.make_action([forward, strafe, -turn, float(attack), float(use), *slots], 1)
            self.snap = self._read()
        return self.snap

    def _read(self) -> Snapshot:
        game = self.game
        finished = game.is_episode_finished()
        state = None if finished else game.get_state()
        if state is None:
            # After the end the state is gone: the counters keep their last values.
            old = getattr(self, "snap", None)
            counters = dict(old.counters) if old else {v: 0.0 for v in VARIABLES}
            counters["DEAD"] = float(game.is_player_dead())
            # The episode's clock also stops being reported: the ending tic is the next one.
            tic = old.tic + 1 if old else game.get_episode_time()
            return Snapshot(tic, True, counters,
                            old.things if old else (), old.floors if old else (),
                            old.ceilings if old else ())
        if state.game_variables is None:  # the game was set up with the variables
            raise RuntimeError("the engine reported no game variables")
        counters = {name: float(value)
                    for name, value in zip(VARIABLES, state.game_variables, strict=True)}
        return Snapshot(game.get_episode_time(), finished, counters, state.objects,
                        tuple(float(s.floor_height) for s in state.sectors),
                        tuple(float(s.ceiling_height) for s in state.sectors))

    def close(self) -> None:
        """Stop the engine's process."""
        self.game.close()
