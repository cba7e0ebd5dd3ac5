"""The goal-sequence question's swapped-in operation gives the goal's wording no hold."""

import random

from harness.offline.pyramid import Goal, Operation, Pyramid
from harness.offline.quiz_kinds import _goal_sequence


def _op(turn: int, text: str) -> Operation:
    return Operation(turn, turn * 30, None, text, text, "arrived", ())


def test_the_swapped_in_operation_shares_as_many_words_with_the_goal() -> None:
    goal = Goal(1, (1,), "Reach the blue door and open it.", "done", (0, 1, 2))
    ops = (_op(0, "walk to the blue door"), _op(1, "open the blue door"),
           _op(2, "go through the door"),
           # Other goals' operations: one shares the goal's words, the others none.
           _op(3, "wait 2 seconds"), _op(4, "shoot guard c4"), _op(5, "open the red door"),
           _op(6, "pick up medkit o9"))
    pyr = Pyramid("r", ops, (goal,), "")
    for seed in range(40):
        question = _goal_sequence(None, pyr, goal, random.Random(seed))
        assert question is not None
        contents = [{step.split(") ", 1)[1] for step in option.split("; ")}
                    for option in question["options"]]
        right = contents[question["answer"]]
        assert right == {"walk to the blue door", "open the blue door", "go through the door"}
        swapped_in = set().union(*contents) - right
        # The only other goal's operation as near the goal's words (3 shared, where the
        # true ones share 2 to 4); a random pick would mostly take one sharing none.
        assert swapped_in == {"open the red door"}


def test_every_option_ends_with_the_goals_last_step_and_the_swap_is_as_long() -> None:
    # The old builder moved the last step (which echoes the goal) in two options and
    # swapped in whatever shared the goal's words, however long.
    goal = Goal(1, (1,), "Pick up the green tonic.", "done", (0, 1, 2, 3))
    ops = (_op(0, "walk to the door"), _op(1, "open the door d2"), _op(2, "wait 1 s"),
           _op(3, "pick up the green tonic o1"),
           _op(4, "open the gate d7"), _op(5, "open the long iron gate d9 of the yard"))
    pyr = Pyramid("r", ops, (goal,), "")
    for seed in range(40):
        question = _goal_sequence(None, pyr, goal, random.Random(seed))
        assert question is not None
        steps = [[s.split(") ", 1)[1] for s in o.split("; ")] for o in question["options"]]
        assert {s[-1] for s in steps} == {"pick up the green tonic o1"}
        # A 16-letter step makes way for "open the gate d7" (16 letters), never for the
        # long one that shares as many of the goal's words.
        swapped_in = {t for s in steps for t in s} - {o.text for o in ops[:4]}
        assert swapped_in == {"open the gate d7"}
        assert len({len(o) for o in question["options"]}) == 1
