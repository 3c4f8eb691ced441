"""Legal actions an engine shares between callers (``base.ReadOnlyAction``) behave as plain dicts
everywhere except that nobody can change them: a caller's mistake cannot corrupt the next game."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from cardgames.engines import get_engine
from cardgames.engines.base import ReadOnlyAction


def puteo_legal() -> tuple[object, int, list[dict]]:
    eng = get_engine("puteo")
    state = eng.new_game(4, seed=3, options={"turn_seconds": None})
    seat = eng.to_act(state)[0]
    return state, seat, eng.legal_actions(state, seat)


def test_a_shared_action_equals_and_serializes_as_the_plain_dict() -> None:
    action = ReadOnlyAction(type="play", card="1O")
    assert action == {"type": "play", "card": "1O"}
    assert json.loads(json.dumps(action)) == {"type": "play", "card": "1O"}
    assert action.get("card") == "1O" and action["type"] == "play"


@pytest.mark.parametrize(
    "change",
    [
        lambda a: a.__setitem__("card", "2O"),
        lambda a: a.__delitem__("card"),
        lambda a: a.update(card="2O"),
        lambda a: a.pop("card"),
        lambda a: a.popitem(),
        lambda a: a.setdefault("suit", "O"),
        lambda a: a.clear(),
    ],
)
def test_a_shared_action_refuses_every_change(change) -> None:
    action = ReadOnlyAction(type="play", card="1O")
    with pytest.raises(TypeError, match="read-only"):
        change(action)
    assert action == {"type": "play", "card": "1O"}


def test_copies_and_pickles_are_plain_changeable_dicts() -> None:
    action = ReadOnlyAction(type="bid", k=2)
    for twin in (copy.copy(action), copy.deepcopy(action), pickle.loads(pickle.dumps(action)), dict(action)):
        assert type(twin) is dict and twin == action
        twin["k"] = 3  # the copy is the caller's
    assert action["k"] == 2


def test_puteo_legal_actions_are_shared_read_only_and_apply_takes_either_form() -> None:
    eng = get_engine("puteo")
    state, seat, legal = puteo_legal()
    assert all(isinstance(a, ReadOnlyAction) for a in legal)
    with pytest.raises(TypeError):
        legal[0]["k"] = 99
    legal.append({"type": "bid", "k": 99})  # the list itself is the caller's
    assert eng.legal_actions(state, seat) == legal[:-1]
    shared, _ = eng.apply(state, seat, legal[0])
    plain, _ = eng.apply(state, seat, dict(legal[0]))
    assert eng.dump(shared) == eng.dump(plain)


@pytest.mark.parametrize("game", ["one_card", "puteo"])
def test_shared_legal_actions_survive_a_whole_game_of_careless_callers(game: str) -> None:
    """A caller that tries to change every action it is offered changes nothing: the same
    seeded game, replayed, offers the same actions."""
    eng = get_engine(game)

    def offered(tamper: bool) -> list[list[dict]]:
        state = eng.new_game(4, seed=11, options={"turn_seconds": None})
        seen = []
        while not eng.is_over(state):
            seat = eng.to_act(state)[0]
            legal = eng.legal_actions(state, seat)
            seen.append([dict(a) for a in legal])
            if tamper:
                for action in legal:
                    with pytest.raises(TypeError):
                        action["type"] = "tampered"
            state, _ = eng.apply(state, seat, legal[-1])
        return seen

    assert offered(tamper=True) == offered(tamper=False)
