"""One Card bots: legal, deterministic, and playing the tips they claim (OC-57, OC-63, OC-64, PF-50).

Speed is measured in bench/ (p99 per decision), never here.
"""

from __future__ import annotations

import ast
import pathlib
import random
from typing import Any

import pytest

from cardgames.bots import get_bot
from cardgames.bots.driver import play_game
from cardgames.bots.one_card import BOTS, EasyBot, HardBot, NormalBot, _lookahead
from cardgames.engines import get_engine
from cardgames.engines.one_card.cards import ORDER

ENG = get_engine("one_card")
LEVELS = ("easy", "normal", "hard")


def table(hands: list[list[str]], top: str, **kw: Any) -> Any:
    """A position through the engine's own ``load`` (fields as in tests/engines/test_one_card.py)."""
    n = len(hands)
    windows = kw.get("windows", [])
    return ENG.load(
        {
            "n": n,
            "seed": 3,
            "hands": [sorted(h, key=ORDER.__getitem__) for h in hands],
            "stock": kw.get("stock", ["2C", "3C", "4C", "5C"]),
            "discard": kw.get("discard", []),
            "top": top,
            "suit": kw.get("suit", top[1]),
            "attack": kw.get("attack", 0),
            "direction": kw.get("direction", 1),
            "turn": kw.get("turn", 0),
            "turn_no": 1,
            "called": [i in kw.get("called", ()) for i in range(n)],
            "windows": [list(w) for w in windows],
            "window_no": max([k for _, k in windows], default=0),
            "rng": 1,
            "idle": 0,
            "lacks": kw.get("lacks", [""] * n),
            "over": False,
            "turn_seconds": None,
            "last": [],
        }
    )


def ask(level: str, state: Any, seat: int, seed: int = 0) -> dict[str, Any] | None:
    bot = BOTS[level]()
    return bot.choose(ENG.view(state, seat), ENG.legal_actions(state, seat), random.Random(seed), {})[0]


# -- contract ----------------------------------------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
def test_bots_always_choose_legal_actions_and_act_when_obliged(level: str) -> None:
    """Over many seeded games (2–4 players, mixed levels), every answer is legal; None only when optional."""
    for seed in range(40):
        n = 2 + seed % 3
        levels = [level, *random.Random(seed).choices(LEVELS, k=n - 1)]
        bots = [get_bot("one_card", lv) for lv in levels]
        rngs = [random.Random(f"{seed}:{s}") for s in range(n)]
        memories: list[dict[str, Any]] = [{} for _ in range(n)]
        state = ENG.new_game(n, seed=seed, options={"turn_seconds": None})
        for _ in range(3000):
            if ENG.is_over(state):
                break
            acted = False
            for seat in ENG.to_act(state):
                view, legal = ENG.view(state, seat), ENG.legal_actions(state, seat)
                action, memories[seat] = bots[seat].choose(view, legal, rngs[seat], memories[seat])
                if action is None:
                    assert seat != view["turn"], "the turn player must play or draw"
                    continue
                assert action in legal
                state = ENG.apply(state, seat, action)[0]
                acted = True
                break
            if not acted:
                timer = min(ENG.timers(state), key=lambda t: t["seconds"])
                state = ENG.apply(state, timer["seat"], {"type": "timeout", "timer": timer["name"]})[0]
        assert ENG.is_over(state)


@pytest.mark.parametrize("level", LEVELS)
def test_bots_are_deterministic_with_a_seeded_rng(level: str) -> None:
    for seed in (1, 2, 3):
        a_state, a = play_game("one_card", [level, "easy", "normal", "hard"], seed=seed)
        b_state, b = play_game("one_card", [level, "easy", "normal", "hard"], seed=seed)
        assert a == b and ENG.dump(a_state) == ENG.dump(b_state)


def test_bots_module_sees_only_views_and_legal_actions() -> None:
    """The bots never reach an engine or a state: they get the view and the legal actions, and
    borrow only the card rules that any player knows (``one_card.cards``: what may follow what)."""
    path = pathlib.Path(__file__).resolve().parents[2] / "cardgames" / "bots" / "one_card.py"
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("cardgames.engines"):
            assert node.module == "cardgames.engines.one_card.cards"
        if isinstance(node, ast.Import):
            assert all(not a.name.startswith("cardgames.engines") for a in node.names)


def test_levels_and_pf_50_parameters() -> None:
    """OC-57 and PF-50: three levels; forgetting 20/5/0 %, catching 0.5/1/1 after 3.5/2.5/1.2 s."""
    assert set(BOTS) == set(LEVELS)
    assert (EasyBot.forget, NormalBot.forget, HardBot.forget) == (0.2, 0.05, 0.0)
    assert (EasyBot.catch_chance, NormalBot.catch_chance, HardBot.catch_chance) == (0.5, 1.0, 1.0)
    assert (EasyBot.catch_delay, NormalBot.catch_delay, HardBot.catch_delay) == (3.5, 2.5, 1.2)


# -- calls and catches (OC-44, PF-50) --------------------------------------------------------
def test_hard_catches_a_forgotten_call() -> None:
    """OC-44, OC-64: seat 2 sits on one card with an open window: hard touches it at once."""
    state = table([["2H", "3H", "4S"], ["5D", "6D", "8D"], ["9C"]], "9H", windows=[(2, 1)])
    for seat in (0, 1):
        assert ask("hard", state, seat) == {"type": "catch", "target": 2}
        assert ask("normal", state, seat) == {"type": "catch", "target": 2}


def test_easy_catches_about_half_the_windows_and_keeps_its_mind() -> None:
    """PF-50: easy catches with probability 0.5, decided once per window (asking again does not re-roll)."""
    state = table([["2S", "3S", "4S"], ["5D", "6D", "8D"], ["9C"]], "9H", windows=[(2, 1)], turn=1)
    caught = 0
    for seed in range(400):
        bot, rng = EasyBot(), random.Random(seed)
        first, memory = bot.choose(ENG.view(state, 0), ENG.legal_actions(state, 0), rng, {})
        for _ in range(5):
            again, memory = bot.choose(ENG.view(state, 0), ENG.legal_actions(state, 0), rng, memory)
            assert again == first
        caught += first is not None
    assert 150 < caught < 250


def test_hard_never_forgets_and_pre_calls_at_two_cards() -> None:
    """PF-50, OC-36, OC-64: hard calls One Card as soon as it holds two cards, even off turn."""
    state = table([["2S", "3S", "4S"], ["5D", "6D"]], "9H")
    assert ask("hard", state, 1) == {"type": "call_one_card"}
    state = table([["2H", "3S"], ["5D", "6D", "8D"]], "9H")
    for seed in range(50):
        assert ask("hard", state, 0, seed) == {"type": "call_one_card"}


def test_easy_forgets_about_one_call_in_five() -> None:
    """PF-50: easy forgets the call 20 % of the time, and then lets its own window pass."""
    state = table([["2H", "3S"], ["5D", "6D", "8D"]], "9H")
    forgot = sum(ask("easy", state, 0, seed) != {"type": "call_one_card"} for seed in range(500))
    assert 60 < forgot < 140
    memory = {"forgetting": True}  # it already decided not to call at two cards
    window = table([["3S"], ["5D", "6D", "8D"]], "2H", windows=[(0, 1)], turn=1)
    action, _ = EasyBot().choose(ENG.view(window, 0), ENG.legal_actions(window, 0), random.Random(0), memory)
    assert action is None


def test_a_bot_with_nothing_obliged_may_pass() -> None:
    """bots/__init__: None only for optional moments; a seat without any action gets None."""
    state = table([["2S", "3S", "4S"], ["5D", "6D", "8D"]], "9H")
    for level in LEVELS:
        assert BOTS[level]().choose(ENG.view(state, 1), [], random.Random(0), {})[0] is None


# -- OC-63 tips and OC-64 mistakes -------------------------------------------------------------
def test_hard_names_its_longest_suit_with_a_seven() -> None:
    """OC-63 tip 6, OC-48: a forced 7 declares the suit held most."""
    state = table([["7H", "2C", "3C", "4C", "5S"], ["5D", "6D", "8D"]], "9H")
    assert ask("hard", state, 0) == {"type": "play", "card": "7H", "suit": "C"}
    assert ask("normal", state, 0)["suit"] == "C"  # type: ignore[index]


def test_hard_keeps_a_seven_as_an_exit() -> None:
    """OC-63 tip 6, OC-64: with another heart to play, the 7♥ stays in hand."""
    state = table([["7H", "2H", "2C", "3C"], ["5D", "6D", "8D"]], "9H")
    assert ask("hard", state, 0) == {"type": "play", "card": "2H"}


def test_hard_saves_attack_cards_until_a_rival_is_short() -> None:
    """OC-63 tip 4: K♥ held against a 5-card next player, played against a 2-card one."""
    hands = [["KH", "2H", "3C", "4C"], ["5D", "6D", "8D", "9D", "TD"], ["2S", "3S", "4S"]]
    assert ask("hard", table(hands, "9H"), 0) == {"type": "play", "card": "2H"}
    hands[1] = ["5D", "6D"]
    assert ask("hard", table(hands, "9H"), 0) == {"type": "play", "card": "KH"}


def test_hard_counts_attack_cards() -> None:
    """OC-63 tip 5: with the other three Ks face up, the last K cannot be answered: attack."""
    hands = [["KH", "2H", "3C", "4C", "5C"], ["5D", "6D", "8D", "9D"], ["2S", "3S", "4S"]]
    discard = ["KS", "KD", "8H"]
    state = table(hands, "KC", suit="H", discard=discard)
    assert ENG.view(state, 0)["played"] == {"K": 3, "A": 0}
    assert ask("hard", state, 0) == {"type": "play", "card": "KH"}


def test_hard_plays_the_suit_its_next_rival_lacks() -> None:
    """OC-63 tip 1: the next player drew on spades: hard switches to ♠ through a rank match."""
    hands = [["9S", "2H", "3H", "4S"], ["5D", "6D", "8D", "TD"], ["2C", "3C", "4C"]]
    state = table(hands, "9H", lacks=["", "S", ""])
    assert ENG.view(state, 0)["lacks"] == [None, "S", None]
    assert ask("hard", state, 0) == {"type": "play", "card": "9S"}


def test_hard_plays_a_jack_with_a_follow_up_at_two_players() -> None:
    """OC-63 tip 7: with two players a J is an extra turn when another card of its suit is ready."""
    state = table([["JH", "2H", "8D", "9D"], ["5C", "6C", "8C"]], "9H")
    assert ask("hard", state, 0) == {"type": "play", "card": "JH"}


def test_easy_spends_attack_cards_early() -> None:
    """OC-64 "spending all attack cards early": the beginner plays K♥ first."""
    state = table([["KH", "2H", "3H", "4C"], ["5D", "6D", "8D", "9D", "TD"]], "9H")
    for seed in range(20):
        assert ask("easy", state, 0, seed) == {"type": "play", "card": "KH"}


def test_hard_plays_its_seven_second_to_last_naming_the_last_cards_suit() -> None:
    """OC-63 tip 6: with 7♥ and 4♣ left, the 7 goes now and names ♣, so the last card can follow."""
    state = table([["7H", "4C"], ["5D", "6D", "8D"]], "9H", called=[0])
    assert ask("hard", state, 0) == {"type": "play", "card": "7H", "suit": "C"}


# -- the hard bot's lookahead ------------------------------------------------------------------
def _look(state: Any, seat: int, seed: int = 0) -> dict[str, float]:
    view, legal = ENG.view(state, seat), ENG.legal_actions(state, seat)
    plays = [a for a in legal if a["type"] == "play"]
    values = _lookahead(view, plays, random.Random(seed), HardBot())
    return {a["card"] + a.get("suit", ""): v for a, v in zip(plays, values, strict=True)}


def test_lookahead_keeps_a_one_card_rival_on_a_suit_it_lacks() -> None:
    """OC-63 tips 1 and 2 by search: the next player holds one card and drew on hearts; leaving
    hearts active (2♥) keeps it from going out more often than leaving clubs (2♣)."""
    hands = [["2H", "2C", "8D", "9S"], ["5D"], ["3S", "4S", "6S", "8S"], ["3D", "4D", "6D", "9D"]]
    state = table(hands, "2S", lacks=["", "H", "", ""])
    look = _look(state, 0)
    assert look["2H"] > look["2C"]
    assert ask("hard", state, 0) == {"type": "play", "card": "2H"}


def test_lookahead_counts_a_draw_at_the_next_turn() -> None:
    """A play that leaves no card to follow at the next turn is worth less than one that keeps a
    card of the same rank and suit family: with 2♥ 2♣ 3♣, playing 3♣ keeps a 2 to follow a 2."""
    hands = [["2H", "2C", "3C"], ["5D", "6D", "8D", "9D", "TD"], ["3S", "4S", "6S"], ["4D", "6H", "9H"]]
    state = table(hands, "3H", stock=["JS", "QS", "TS", "9S", "8S"])
    look = _look(state, 0, seed=1)
    assert set(look) == {"2H", "3C"}
    assert look["3C"] > look["2H"]  # the kept 2 follows whatever 2 or club comes back
    assert all(-HardBot.look_loss <= v <= -1.0 for v in look.values())  # a mean of hands or losses


def test_lookahead_is_deterministic_and_leaves_forced_moves_alone() -> None:
    """Same seed, same values; a single legal card or a pending attack skips the search."""
    hands = [["2H", "2C", "8D", "9S"], ["5D"], ["3S", "4S", "6S", "8S"], ["3D", "4D", "6D", "9D"]]
    state = table(hands, "2S", lacks=["", "H", "", ""])
    assert _look(state, 0, seed=5) == _look(state, 0, seed=5)
    attacked = table([["KH", "KC", "2D"], ["5D", "6D"], ["3S"], ["4D"]], "KS", attack=2)
    assert ask("hard", attacked, 0)["card"] in ("KH", "KC")  # type: ignore[index]
