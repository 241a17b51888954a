"""Error types that say which mistake was made; all are ``ValueError`` so callers can catch one."""


class BonesError(ValueError):
    """Base of every refusal the engine raises: the message is one line meant for a person."""


class RulesError(BonesError):
    """A rules object that is unknown, malformed or cannot be dealt; names the option."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(f'rules: option "{option}" {message}')


class DealError(BonesError):
    """A deal or a leader that the rules do not allow (wrong sizes, a redeal, a wrong leader)."""


class IllegalMove(BonesError):
    """A move that the rules forbid at this moment; the message explains why."""
