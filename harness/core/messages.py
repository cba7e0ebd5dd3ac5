"""TypedDicts of the protocol's messages and record lines, by harness.docgen.protocol.

Do not edit: change the schema in schemas/messages/ (or schemas/record/) and run the tool
again. A value typed here has passed (or is about to pass) the schema's validator; the
types let mypy check the code that builds and reads messages and record lines.
"""
from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class StartMessageBudgets(TypedDict):
    """Every budget and deadline of the episode; each observation repeats what is left."""

    max_decisions: int
    max_game_seconds: float
    hello_timeout_s: float
    decision_timeout_s: float
    episode_timeout_s: float
    max_invalid_in_a_row: int
    max_line_bytes: int


class StartMessageToolsItemFunction(TypedDict):
    """The action as a function: its name, what it does and its arguments."""

    name: str
    description: str
    parameters: dict[str, Any]


class StartMessageToolsItem(TypedDict):
    """StartMessageToolsItem."""

    type: Literal["function"]
    function: StartMessageToolsItemFunction


class StartMessageTrack(TypedDict):
    """What the schema says of it.

    The track played: macro (one macro action a decision) or raw (controller input held for
    frame_skip ticks, with a ray scan in each observation's raw). A record written before tracks
    existed has none: macro.
    """

    name: Literal["macro", "raw"]
    frame_skip: NotRequired[int]
    rays: NotRequired[int]
    fov_deg: NotRequired[float]
    max_range: NotRequired[float]
    ray_channels: NotRequired[list[str]]
    player_features: NotRequired[list[str]]
    objective_features: NotRequired[list[str]]


class StartMessageOrigin(TypedDict):
    """What the schema says of it.

    Present when the episode starts from a snapshot (a moment of an earlier episode, `harness
    run --from`): the world's clock, the objectives already done and why the moment was kept.
    """

    tick: int
    objectives_done: list[int]
    reason: str


class StartMessageMatch(TypedDict):
    """What the schema says of it.

    Matches only (harness match, the multiplayer track): which player this agent plays, how many
    players the match has, how many of them are on its team besides itself, its own frags so far
    and the name of the exit area. Nothing of the other players' frags, places or decisions.
    """

    player: str
    players: int
    teammates: int
    frags: int
    exit: str | None


ChainOrder = Literal["causal", "thematic"]


class StartMessageStepwiseSubtasksItem(TypedDict):
    """StartMessageStepwiseSubtasksItem."""

    subtask: int
    max_decisions: int
    max_game_seconds: float


class StartMessageStepwise(TypedDict):
    """What the schema says of it.

    Present on the stepwise track: the episode plays its level's chain of subtasks (objectives)
    in order, each with its own budget counted from the moment it begins; a failed subtask
    resets the world to the reference run's success state of it (each observation's stepwise
    says which subtask is on).
    """

    chain: list[int]
    order: ChainOrder
    done: list[int]
    subtasks: list[StartMessageStepwiseSubtasksItem]


class StartMessage(TypedDict):
    """start (harness to agent)."""

    type: Literal["start"]
    protocol_version: Literal[1, 2, 3]
    level: str
    title: str
    difficulty: str
    seed: int
    brief: str
    budgets: StartMessageBudgets
    units: dict[str, str | float]
    tools: list[StartMessageToolsItem]
    track: NotRequired[StartMessageTrack]
    origin: NotRequired[StartMessageOrigin]
    match: NotRequired[StartMessageMatch]
    stepwise: NotRequired[StartMessageStepwise]


class HelloMessage(TypedDict):
    """hello (agent to harness)."""

    type: Literal["hello"]
    protocol_version: Literal[1, 2, 3]
    name: str
    version: str
    model: NotRequired[str | None]
    description: NotRequired[str | None]


class ObservationMessageViewPlayerCarriedItem(TypedDict):
    """ObservationMessageViewPlayerCarriedItem."""

    id: str
    kind: str
    name: str
    ammo: NotRequired[int | None]
    loaded: NotRequired[int | None]
    weapon: NotRequired[str | None]


class ObservationMessageViewPlayer(TypedDict):
    """The player."""

    position: list[float]
    facing_deg: float
    health: float
    armour: float
    alive: bool
    reloading: NotRequired[bool]
    in_hand: str | None
    carried: list[ObservationMessageViewPlayerCarriedItem]
    keys: list[str]


class ObservationMessageViewAreaWaysOutItem(TypedDict):
    """ObservationMessageViewAreaWaysOutItem."""

    id: str
    to: str
    to_name: str
    via: Literal["opening", "door", "stairs"]
    door: str | None
    position: list[float]
    visited: bool
    one_way: bool
    other_storey: bool
    distance: float


class ObservationMessageViewAreaWindowsItem(TypedDict):
    """ObservationMessageViewAreaWindowsItem."""

    id: str
    to: str
    to_name: str
    position: list[float]


class ObservationMessageViewArea(TypedDict):
    """The area the player stands in; null between areas."""

    id: str
    name: str
    storey: str
    ways_out: list[ObservationMessageViewAreaWaysOutItem]
    windows: list[ObservationMessageViewAreaWindowsItem]


class ObservationMessageViewObjectivesItemHeadingTo(TypedDict):
    """ObservationMessageViewObjectivesItemHeadingTo."""

    area: str
    name: str
    position: list[float]


class ObservationMessageViewObjectivesItem(TypedDict):
    """ObservationMessageViewObjectivesItem."""

    index: int
    status: Literal["todo", "done", "failed"]
    min_difficulty: str
    counts: bool
    text: str
    area: str | None
    area_name: str | None
    distance: float | None
    kind: NotRequired[str]
    standing: NotRequired[bool]
    targets: NotRequired[list[str]]
    point: NotRequired[list[float] | None]
    heading_to: NotRequired[ObservationMessageViewObjectivesItemHeadingTo | None]
    located: NotRequired[bool | None]


class ObservationMessageViewCharactersItem(TypedDict):
    """ObservationMessageViewCharactersItem."""

    id: str
    kind: str
    position: list[float]
    area: str | None
    health: float
    down: bool
    alertness: str
    armed: bool | None
    weapon: NotRequired[str | None]
    friendly: bool | None
    seen: Literal["now", "before", "heard"]
    seen_tick: int
    distance: float
    facing_deg: NotRequired[float | None]
    view_angle_deg: NotRequired[float | None]
    view_range: NotRequired[float | None]
    talks: NotRequired[bool]


class ObservationMessageViewObjectsItem(TypedDict):
    """ObservationMessageViewObjectsItem."""

    id: str
    kind: str
    name: str
    position: list[float]
    area: str | None
    distance: float
    objective: bool
    state: str | None
    weapon: NotRequired[str | None]
    facing_deg: NotRequired[float | None]
    view_angle_deg: NotRequired[float | None]
    view_range: NotRequired[float | None]


class ObservationMessageViewDoorsItem(TypedDict):
    """ObservationMessageViewDoorsItem."""

    id: str
    position: list[float]
    between: list[str]
    state: Literal["open", "opening", "closing", "closed", "locked", "broken"]
    locked_from_this_side: bool
    key: str | None
    key_area: str | None
    panel: str | None
    open_seconds: float | None
    one_way: bool
    distance: float
    needs_key: bool
    has_panel: bool


class ObservationMessageViewHazardsItem(TypedDict):
    """ObservationMessageViewHazardsItem."""

    kind: str
    text: str
    seconds_left: float | None
    extent: list[list[float]] | None
    effect: str | None


class ObservationMessageViewExit(TypedDict):
    """What the schema says of it.

    The mission exit; it has no position (null where the level has none, and on Doom missions).
    """

    area: str
    name: str
    distance: float | None
    warning: str | None


class ObservationMessageView(TypedDict):
    """The structured view: only what the player knows ("What the player knows")."""

    player: ObservationMessageViewPlayer
    area: ObservationMessageViewArea | None
    objectives: list[ObservationMessageViewObjectivesItem]
    characters: list[ObservationMessageViewCharactersItem]
    objects: list[ObservationMessageViewObjectsItem]
    doors: list[ObservationMessageViewDoorsItem]
    hazards: list[ObservationMessageViewHazardsItem]
    exit: ObservationMessageViewExit | None


EndReason = Literal[
    "arrived",
    "gave_up",
    "stuck",
    "unreachable",
    "door_closed",
    "wrong_storey",
    "damage",
    "objective",
    "stage",
    "dead",
    "out_of_ammo",
    "target_gone",
    "refused",
    "no_known_route",
    "held",
]


class ObservationMessageLastResultReadItem(TypedDict):
    """ObservationMessageLastResultReadItem."""

    object: str
    text: str


class ObservationMessageLastResultDoor(TypedDict):
    """What the schema says of it.

    For door_closed: the door in the way, its state, the key and the key's area and the panel
    (each once seen, else null).
    """

    door: str
    state: str
    key: str | None
    key_area: str | None
    panel: str | None


class ObservationMessageLastResult(TypedDict):
    """How the previous action ended (null on the first turn or after an invalid action)."""

    action: str
    end_reason: EndReason
    ticks: int
    distance_moved: float
    detail: str
    changes: list[str]
    read: NotRequired[list[ObservationMessageLastResultReadItem]]
    door: NotRequired[ObservationMessageLastResultDoor | None]


class ObservationMessageBudgets(TypedDict):
    """What is left of the budgets `start` gave."""

    decisions_left: int
    game_seconds_left: float
    episode_wall_s_left: float
    decision_timeout_s: float
    invalid_in_a_row: int
    max_invalid_in_a_row: int


ErrorCode = Literal[
    "not_json",
    "non_finite_number",
    "not_an_object",
    "unknown_type",
    "unexpected_type",
    "bad_message",
    "unknown_action",
    "bad_arguments",
    "unknown_id",
    "refused_request",
    "line_too_long",
    "not_utf8",
    "extra_lines",
]


class ObservationMessageError(TypedDict):
    """Why the previous action was rejected; it counted as a decision and nothing ran."""

    code: ErrorCode
    message: str


class ObservationMessageWarningsItem(TypedDict):
    """ObservationMessageWarningsItem."""

    code: ErrorCode
    message: str


class ObservationMessageRaw(TypedDict):
    """What the schema says of it.

    Raw-control track only: the player's state, the objectives and the ray scan, in the order
    the start message's track lists their features and channels.
    """

    player: list[float]
    objectives: list[list[float]]
    objectives_mask: list[float]
    rays: list[list[float]]


class ObservationMessageStepwise(TypedDict):
    """What the schema says of it.

    Stepwise track only: the subtask on (null once the chain is over), the subtasks that
    succeeded and failed so far, and whether the world was just reset to the reference run's
    success state of the subtask that failed.
    """

    subtask: int | None
    succeeded: list[int]
    failed: list[int]
    reset: bool


class ObservationMessage(TypedDict):
    """observation (harness to agent)."""

    type: Literal["observation"]
    protocol_version: Literal[1, 2, 3]
    turn: int
    tick: int
    time_s: float
    view: ObservationMessageView
    last_result: ObservationMessageLastResult | None
    budgets: ObservationMessageBudgets
    error: ObservationMessageError | None
    warnings: list[ObservationMessageWarningsItem]
    text: str
    raw: NotRequired[ObservationMessageRaw]
    match: NotRequired[StartMessageMatch]
    stepwise: NotRequired[ObservationMessageStepwise]


class ActionMessageUsage(TypedDict):
    """What the schema says of it.

    Self-reported usage for this decision; leave a figure out (or null) when unknown, since a
    missing figure is not zero.
    """

    input_tokens: NotRequired[float | None]
    cached_input_tokens: NotRequired[float | None]
    output_tokens: NotRequired[float | None]
    reasoning_tokens: NotRequired[float | None]
    cost_usd: NotRequired[float | None]


class ActionMessage(TypedDict):
    """action (agent to harness; generated from the action catalogue, do not edit)."""

    type: Literal["action"]
    protocol_version: Literal[1, 2, 3]
    action: Literal[
        "go_to",
        "go_to_area",
        "go_to_object",
        "turn_and_use",
        "attack",
        "shoot_object",
        "equip",
        "use_item_on",
        "enter_code",
        "wait",
        "controls",
    ]
    arguments: dict[str, Any]
    notes: NotRequired[str | None]
    usage: NotRequired[ActionMessageUsage | None]


Outcome = Literal[
    "completed",
    "failed",
    "chain_played",
    "truncated",
    "agent_timeout",
    "agent_crashed",
    "resource_limit",
    "protocol_error",
    "harness_error",
    "interrupted",
]


class SummaryMessageObjectivesItem(TypedDict):
    """SummaryMessageObjectivesItem."""

    index: int
    status: Literal["todo", "done", "failed"]
    counts: bool
    text: str
    tick: NotRequired[int | None]


class SummaryMessageMatch(TypedDict):
    """What the schema says of it.

    Matches only (harness match, the multiplayer track): which player this agent plays, how many
    players the match has, how many of them are on its team besides itself, its own frags so far
    and the name of the exit area. Nothing of the other players' frags, places or decisions.
    """

    player: str
    players: int
    teammates: int
    frags: int
    exit: str | None
    result: Literal["won", "lost", "draw"] | None


class SummaryMessageStepwiseSubtasksItem(TypedDict):
    """SummaryMessageStepwiseSubtasksItem."""

    subtask: int
    played: bool
    success: bool | None
    end: str
    decisions: int
    game_seconds: float


class SummaryMessageStepwise(TypedDict):
    """What the schema says of it.

    Stepwise track only: each subtask's result in chain order, the first that failed, and
    whether the chain passed (every subtask played and succeeded).
    """

    subtasks: list[SummaryMessageStepwiseSubtasksItem]
    first_failed: int | None
    passed: bool


class SummaryMessage(TypedDict):
    """summary (harness to agent)."""

    type: Literal["summary"]
    protocol_version: Literal[1, 2, 3]
    outcome: Outcome
    terminated: bool
    truncated: bool
    success: bool
    failure: NotRequired[str | None]
    score: float
    progress: NotRequired[float]
    stages: NotRequired[float]
    objectives: list[SummaryMessageObjectivesItem]
    decisions: int
    invalid_actions: int
    game_ticks: int
    reason: str
    match: NotRequired[SummaryMessageMatch]
    stepwise: NotRequired[SummaryMessageStepwise]


class RecordTurnError(TypedDict):
    """RecordTurnError."""

    code: ErrorCode
    message: str


class RecordTurnResult(TypedDict):
    """The action's full result (the agent sees only part of it in the next observation)."""

    path: NotRequired[list[list[int]]]


class RecordTurn(TypedDict):
    """Run record: one turn."""

    kind: Literal["turn"]
    turn: int
    tick: int
    state_hash: str
    observation: ObservationMessage
    text_chars: int
    raw_action: str | None
    action: ActionMessage | None
    error: RecordTurnError | None
    result: RecordTurnResult | None
    extra_lines: int
    agent_wall_s: float
    harness_ms: float
