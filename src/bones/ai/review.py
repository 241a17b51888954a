"""After a hand: which of a seat's plays cost it the most, judged by an exact solve of the
revealed deal (every player then plays perfectly with every tile known: a double-dummy
solve, as bridge players analyse a deal). With three or more sides "perfectly" has no one
meaning, since each plays for itself; the solve takes the other sides to play together
against the seat judged (the paranoid reading), so a play is blamed only for what it lost
against every way the others could have played.

A play's cost is the value of the best play at that moment minus the value of the play made,
in the expert's units (1 is the difference between a tie and a win, a point at stake adds
0.01, and a hand that decides the game adds 0.5 to its win or loss). A player is told it in
the game's own terms (``mistake_text``): the points it cost, or the hand, the tie or the
game, with both results as perfect play would have ended the hand. Decisions too deep to
solve within the node limit are skipped, not guessed (``deep_text``).

The judge is the expert's ``Judge`` with its model of the other players switched off
(``JUDGE_CONFIG``): the expert expects opponents to play by habit, but a review that blamed
a play for not exploiting a habit would be judging the opponent, not the play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bones.ai.expert_config import ExpertConfig
from bones.ai.judge import Judge, Memo, OutOfNodes
from bones.ai.position import Position
from bones.engine.moves import Play
from bones.engine.state import HandState, apply_unchecked, new_hand
from bones.record.writer import undealt

#: The expert's settings with the other sides solved as playing perfectly (minimax).
JUDGE_CONFIG = ExpertConfig(model_opponents=False)
#: Nodes one decision's solve may use, per candidate play.
REVIEW_NODES = 30_000
#: How a play is judged, as the review's readers are told it.
COST_LEGEND = ("each play is set against the best one there, both followed by perfect play "
               "from every seat with every tile known; the cost is what it lost: points, "
               "the hand or the game")
#: Costs below this are not mistakes: every exact value is a whole number of hundredths
#: (a result and its points), so anything smaller is rounding in the sums.
MIN_COST = 0.005


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a hand ends for the seat judged, with perfect play: a ``"win"``, ``"tie"`` or
    ``"loss"``, the points the winning side scores, and whether that ends the game."""

    result: str
    points: int = 0
    game: bool = False

    def words(self) -> str:
        """``a win of 12 points``, ``a tie``, ``a loss of 9 points that ends the game``."""
        if self.result == "tie":
            return "a tie"
        points = f"a {self.result} of {self.points} point{'' if self.points == 1 else 's'}" \
            if self.points else f"a {self.result} that scores nothing"
        if not self.game:
            return points
        return points + (" that takes the game" if self.result == "win" else
                         " that ends the game")


@dataclass(frozen=True, slots=True)
class Mistake:
    """A play that was worse than the best one available."""

    #: The move's place in the hand's moves, draws and passes included, from 1 (as a
    #: record numbers them) ...
    move_number: int
    #: ... and among the seat's own plays, from 1 (as the player remembers them).
    play_number: int
    played: Play
    best: Play
    cost: float
    #: How the hand ends with perfect play after the play made, and after the best play.
    outcome: Outcome = Outcome("tie")
    best_outcome: Outcome = Outcome("tie")


def review(hand: HandState, seat: int, scores: Sequence[int],
           node_limit: int = REVIEW_NODES) -> tuple[list[Mistake], int]:
    """The costly plays of ``seat`` in a finished hand, worst first, and how many of its
    decisions could not be solved in time. It reads every hand and the boneyard, so it
    refuses a hand still in play (``ValueError``)."""
    if hand.end is None:
        raise ValueError("a hand is reviewed only once it is over")
    rules = hand.rules
    state = new_hand(rules, hand.deal, undealt(hand), hand.leader, hand.opening)
    judge = Judge(rules, seat, scores, config=JUDGE_CONFIG)
    mistakes: list[Mistake] = []
    skipped = 0
    plays = 0
    for number, move in enumerate(hand.moves, start=1):
        if move.seat == seat and isinstance(move, Play):
            plays += 1
            choices = [m for m in state.legal_moves() if isinstance(m, Play)]
            if len(choices) > 1:
                values = _values(state, choices, judge, node_limit)
                if values is None:
                    skipped += 1
                else:
                    best = max(values, key=values.__getitem__)
                    cost = values[best] - values[move]
                    if cost > MIN_COST:
                        mistakes.append(Mistake(number, plays, move, best, cost,
                                                _outcome(values[move], judge),
                                                _outcome(values[best], judge)))
        state = apply_unchecked(state, move)
    mistakes.sort(key=lambda m: -m.cost)
    return mistakes, skipped


def mistake_text(mistake: Mistake, own: bool = False) -> str:
    """One mistake in words. ``bones replay --review`` numbers it by the record's moves;
    ``bones play`` (``own``) by the player's own plays of the hand, since its screen
    numbers no moves and a player counts draws and the others' turns by no one's count."""
    played, best = mistake.played, mistake.best
    where = f"your play {mistake.play_number}" if own else f"move {mistake.move_number}"
    return (f"{where}: {played.tile} on the {played.end or 'table'} "
            f"(better: {best.tile} on the {best.end or 'table'}) "
            f"{cost_words(mistake.outcome, mistake.best_outcome)}")


def cost_words(made: Outcome, best: Outcome) -> str:
    """What a play cost, in the game's terms: ``cost 3 points (a win of 9 points instead
    of 12)``, ``cost the hand (a loss of 5 points instead of a win of 12 points)``."""
    if made.result == best.result and made.game == best.game:
        lost = abs(best.points - made.points)
        return (f"cost {lost} point{'' if lost == 1 else 's'} "
                f"(a {made.result} of {made.points} point{'' if made.points == 1 else 's'} "
                f"instead of {best.points})")
    if best.result == "win" and made.result == "tie":
        what = "the win"
    elif best.result == "tie":
        what = "the tie"
    elif (best.result == "win" and best.game) or (made.result == "loss" and made.game):
        what = "the game"
    else:
        what = "the hand"
    return f"cost {what} ({made.words()} instead of {best.words()})"


def deep_text(skipped: int) -> str:
    """Why some decisions were not judged, in words."""
    return (f"{skipped} decision{' was' if skipped == 1 else 's were'} not judged: too many "
            "ways the hand could still go to solve in time")


def _outcome(value: float, judge: Judge) -> Outcome:
    """The hand's end a solved value stands for: 0 is a tie; a win or loss is worth
    1 + 0.01 per point, and 0.5 more when it ends the game (``Judge.value``), which the
    scores before the hand tell apart from 50 more points."""
    if abs(value) < MIN_COST:
        return Outcome("tie")
    won = value > 0
    extra = abs(value) - 1.0
    sides = [judge.side] if won else [s for s in range(judge.rules.sides) if s != judge.side]
    plain = round(extra / JUDGE_CONFIG.points_weight)
    if any(judge.scores[s] + plain < judge.target for s in sides):
        return Outcome("win" if won else "loss", plain)
    return Outcome("win" if won else "loss", round((extra - JUDGE_CONFIG.game_weight)
                                                    / JUDGE_CONFIG.points_weight), True)


def _values(state: HandState, choices: list[Play], judge: Judge,
            node_limit: int) -> dict[Play, float] | None:
    pos = Position.from_state(state)
    values = {}
    table: Memo = {}
    for play in choices:
        pos.play(pos.encode(play))
        try:
            values[play] = judge.solve(pos, node_limit, table)
        except OutOfNodes:
            return None
        finally:
            pos.undo()
    return values
