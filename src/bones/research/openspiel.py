"""bones as an OpenSpiel game: ``pyspiel.load_game("bones(draw=True,players=3)")`` after
``import bones.research.openspiel``, and bones's bot levels as OpenSpiel bots.

OpenSpiel (DeepMind's framework of games and game-playing algorithms; ``pip install
'bones[research]'``) sees one hand of any rule set: chance events for the deal, the lots and
each draw, the forced pass as an action, information states and observations that hold
only what the seat may know, and returns in points or as a win or a loss. The hand itself
is ``bones.research.core.Hand``, held by every state; docs/research.md gives the action
numbering and the tensor layouts.

The game's parameters are the rules options of docs/rules.md with their names and defaults,
``preset``, and ``returns``. OpenSpiel gives each parameter one type and reads ``7`` in a
game string as a number, so the two options that take a number or a word take numbers here:
``hand_size`` 0 is ``"standard"`` and -1 ``"pool"``; ``target`` 0 is ``"pagat"`` (a hand
is played alone, so ``target``, ``next_lead``, ``ante``, ``pool`` and ``pool_tie`` change
nothing in it, but every rule set loads). An option left at its default takes the
preset's value: ``bones(preset=draw,players=3)`` is the ``draw`` preset for three.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from bones.ai.levels import LEVELS, make_bot
from bones.engine.rules import OPTION_NAMES, Rules, preset
from bones.research.core import (
    OVER,
    PLAY,
    RETURNS,
    Hand,
    Returns,
    Setup,
    information_state_pieces,
    observation_pieces,
    setup,
    size_of,
    write_information_state,
    write_observation,
)
from bones.research.resample import resample

try:
    import pyspiel  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as exc:  # pragma: no cover - where OpenSpiel has no wheel
    raise ImportError("bones.research.openspiel needs OpenSpiel: pip install "
                      "'bones[research]' (or pip install open_spiel)") from exc

#: The name the game is registered under.
GAME_NAME: Final = "bones"

#: ``hand_size`` and ``target`` words as OpenSpiel's numbers, and back.
HAND_SIZE_NUMBERS: Final[dict[str, int]] = {"standard": 0, "pool": -1}
TARGET_NUMBERS: Final[dict[str, int]] = {"pagat": 0}

_DEFAULT_RULES = Rules()


def _parameter(name: str, value: object) -> object:
    """An option's value as an OpenSpiel parameter."""
    if name == "hand_size" and isinstance(value, str):
        return HAND_SIZE_NUMBERS[value]
    if name == "target" and isinstance(value, str):
        return TARGET_NUMBERS[value]
    return value


def _option(name: str, value: object) -> object:
    """An OpenSpiel parameter's value as the option's."""
    if name == "hand_size":
        return {n: w for w, n in HAND_SIZE_NUMBERS.items()}.get(value, value)  # type: ignore[call-overload]
    if name == "target":
        return {n: w for w, n in TARGET_NUMBERS.items()}.get(value, value)  # type: ignore[call-overload]
    return value


#: The game's parameters and their defaults: every option, ``preset`` and ``returns``.
PARAMETERS: Final[dict[str, object]] = {
    **{name: _parameter(name, getattr(_DEFAULT_RULES, name)) for name in OPTION_NAMES},
    "preset": "block",
    "returns": "points",
}


def rules_of(params: Mapping[str, object]) -> tuple[Rules, Returns]:
    """The rules and the way returns are counted that OpenSpiel parameters give:
    ``preset``, then every option whose value is not its default. ``RulesError`` (a
    ``ValueError``) names an option the rules refuse."""
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise ValueError(f"bones: {unknown[0]!r} is not a parameter of the game "
                         f"(known: {', '.join(PARAMETERS)})")
    name = params.get("preset", "block")
    base = preset(str(name))
    changes = {}
    for option in OPTION_NAMES:
        if option in params and params[option] != PARAMETERS[option]:
            changes[option] = _option(option, params[option])
    returns = params.get("returns", "points")
    for known in RETURNS:
        if returns == known:
            return base.replace(**changes), known
    raise ValueError(f"bones: returns must be one of {', '.join(RETURNS)}, not {returns!r}")


def params_of(rules: Rules, returns: Returns = "points") -> dict[str, object]:
    """OpenSpiel parameters for ``rules``: every option that differs from its default
    (the preset is not named: each option is given as it is)."""
    out: dict[str, object] = {name: _parameter(name, value)
                              for name, value in rules.options().items()
                              if value != getattr(_DEFAULT_RULES, name)}
    if returns != "points":
        out["returns"] = returns
    return out


def _game_type(utility: Any) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="bones dominoes (Block, Draw, Domino Pool): one hand",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=64,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=True,
        parameter_specification=PARAMETERS,
    )


_GAME_TYPE = _game_type(pyspiel.GameType.Utility.ZERO_SUM)
_GENERAL_SUM_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)

_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)


class BonesGame(pyspiel.Game):  # type: ignore[misc]
    """One hand of bones under the rules the parameters give (see the module's text)."""

    def __init__(self, params: Mapping[str, object] | None = None) -> None:
        given = dict(params or {})
        rules, returns = rules_of(given)
        self.setup: Setup = setup(rules, returns)
        self.rules = rules
        low, high = self.setup.utility_range()
        zero_sum = returns != "scored"
        info = pyspiel.GameInfo(
            num_distinct_actions=self.setup.actions,
            max_chance_outcomes=self.setup.count,
            num_players=rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self.setup.max_length,
        )
        # The parameters kept (and written in the game's string) are the rules resolved:
        # ``bones(preset=draw)`` reads back as ``draw=True``, not as the default it left.
        resolved = {**{name: _parameter(name, value) for name, value in rules.options().items()},
                    "preset": str(given.get("preset", "block")), "returns": returns}
        super().__init__(_GAME_TYPE if zero_sum else _GENERAL_SUM_TYPE, info, resolved)

    def new_initial_state(self) -> BonesState:
        return BonesState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, object] | None = None) -> BonesObserver:
        return BonesObserver(self.setup, iig_obs_type, params)


class BonesState(pyspiel.State):  # type: ignore[misc]
    """A hand in play. ``hand`` is the model underneath (``bones.research.core.Hand``).

    ``legal_actions``, ``is_chance_node`` and ``is_player_node`` are answered here in
    Python, as ``current_player`` and ``chance_outcomes`` are, rather than through
    OpenSpiel's C++ and back: the same answers, for Python callers at a fraction of the
    cost (C++ callers go through ``_legal_actions`` as usual)."""

    def __init__(self, game: BonesGame) -> None:
        super().__init__(game)
        self.hand = Hand(game.setup)

    def current_player(self) -> int:
        hand = self.hand
        phase = hand.phase
        if phase == PLAY:
            return hand.to_move
        return _TERMINAL if phase == OVER else _CHANCE

    def is_chance_node(self) -> bool:
        return self.hand.is_chance

    def is_player_node(self) -> bool:
        return self.hand.phase == PLAY

    def is_terminal(self) -> bool:
        return self.hand.phase == OVER

    def legal_actions(self, player: int | None = None) -> list[int]:
        hand = self.hand
        if hand.phase == PLAY:
            if player is None or player == hand.to_move:
                return hand.legal_actions()
            return []
        if hand.phase == OVER:
            return []
        return [action for action, _ in hand.chance_outcomes()]

    def _legal_actions(self, player: int) -> list[int]:
        return self.hand.legal_actions() if player == self.hand.to_move else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.hand.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.hand.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        hand = self.hand
        s = hand.setup
        if player == _CHANCE:
            if hand.phase == 1:  # LOTS
                return f"lots: seat {action} leads"
            verb = "draw" if hand.phase == 3 else f"deal to seat {hand.dealing_to}:"
            return f"{verb} {s.tiles[action]}"
        return s.play_text(action, first=not hand.arms_open)

    def returns(self) -> list[float]:
        return self.hand.returns()

    def rewards(self) -> list[float]:
        return self.hand.returns()

    def __str__(self) -> str:
        return str(self.hand)

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any = None) -> BonesState:
        """A state ``player_id`` cannot tell from this one, the tiles it has not seen
        drawn afresh (``bones.research.resample``): what OpenSpiel's IS-MCTS asks for.
        ``probability_sampler`` (OpenSpiel's ``UniformProbabilitySampler``, or any callable
        giving a float in [0, 1)) seeds the draw; without one it is seeded by the system."""
        seed = None if probability_sampler is None else int(probability_sampler() * 2**53)
        state: BonesState = self.clone()
        state.hand = resample(self.hand, player_id, random.Random(seed))
        return state


class BonesObserver:
    """OpenSpiel's observer of a hand: the information state (``perfect_recall``) or the
    observation, as strings and as a flat float32 tensor with named views (``dict``)."""

    def __init__(self, s: Setup, iig_obs_type: Any,
                 params: Mapping[str, object] | None) -> None:
        if params:
            raise ValueError(f"bones: observation parameters are not supported: {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        info = iig_obs_type.private_info
        if info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("bones: no observer shows every seat's tiles")
        self.private = info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        maker = information_state_pieces if self.perfect_recall else observation_pieces
        pieces = maker(s, self.private, self.public)
        self.tensor = np.zeros(size_of(pieces), np.float32)
        self.dict: dict[str, np.ndarray[Any, Any]] = {}
        at = 0
        for name, shape in pieces:
            size = size_of([(name, shape)])
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: BonesState, player: int) -> None:
        self.tensor.fill(0.0)
        write = write_information_state if self.perfect_recall else write_observation
        write(state.hand, player, self.tensor, self.private, self.public)

    def string_from(self, state: BonesState, player: int) -> str:
        if self.perfect_recall:
            return state.hand.information_state_string(player, self.private, self.public)
        return state.hand.observation_string(player, self.private, self.public)


def load(rules: Rules | None = None, returns: Returns = "points") -> Any:
    """The OpenSpiel game of ``rules`` (the default rules, double-six Block for two, when
    ``None``)."""
    return pyspiel.load_game(GAME_NAME, params_of(rules or Rules(), returns))


class BonesBot(pyspiel.Bot):  # type: ignore[misc]
    """A bones bot level (``bones.ai.levels.LEVELS``) as an OpenSpiel bot for the ``bones``
    game: on its turn it is shown its seat's view (``Hand.seat_view``: its own tiles, the
    public moves) and its play becomes the action; a forced pass is passed for it."""

    def __init__(self, level: str, seed: int = 0, think: float = 0.1) -> None:
        pyspiel.Bot.__init__(self)
        self.level = level
        self.bot = make_bot(level, random.Random(seed), think)

    def step(self, state: BonesState) -> int:
        hand = state.hand
        legal = hand.legal_actions()
        if legal == [hand.setup.pass_action]:
            return legal[0]
        play = self.bot.choose(hand.seat_view(hand.to_move))
        return hand.setup.action(play)

    def restart_at(self, state: BonesState) -> None:
        pass

    def inform_action(self, state: BonesState, player_id: int, action: int) -> None:
        pass

    def provides_policy(self) -> bool:
        return False

    def is_clone_implemented(self) -> bool:
        return False


def bots(levels: list[str] | tuple[str, ...], seed: int = 0,
         think: float = 0.1) -> list[BonesBot]:
    """One ``BonesBot`` per level, seeded apart."""
    return [BonesBot(level, seed * 1_000 + seat, think) for seat, level in enumerate(levels)]


__all__ = ["GAME_NAME", "LEVELS", "PARAMETERS", "BonesBot", "BonesGame", "BonesObserver",
           "BonesState", "bots", "load", "params_of", "rules_of"]

if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_GAME_TYPE, BonesGame)
