"""The terminal game behind ``bones play``.

It sits on the engine and the bots (``bones.ai``: the seats' bots, the expert's hints and
the review of a hand), and on Rich for output. Each module has
one job: ``faces`` draws tiles, the layout and a hand; ``narrate`` says what happened;
``screens`` composes whole screens that fit 80x24; ``commands`` reads what a person types;
``seats`` says who sits where; ``terminal`` is the only place that reads or writes the
terminal; ``table`` runs the game loop. Screens for a seat are built from
``observe(game, seat)`` only, so a hand is never shown to the wrong person by accident;
the referee's full state is rendered only when a hand ends and all hands are revealed.
"""
