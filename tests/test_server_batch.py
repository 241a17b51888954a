"""What several tables append at once is committed in one transaction (``Hub.append``,
``Store.append_many``); one table's rows that the database refuses fail that table only,
and the others' rows are committed all the same."""

from __future__ import annotations

from bones.server import migrate
from bones.server.store import Append, LogRow, Store, make_engine


def test_one_tables_refused_rows_fail_only_that_table(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'bones.db'}")
    migrate.upgrade(engine)
    store = Store(engine)
    try:
        made = [store.create_table({"t": n}, f"{n}" * 64, f"{n + 5}" * 64, ["human"], {})
                for n in (1, 2, 3)]
        first = [Append(t, [LogRow(1, 0, "join", {"seat": 0, "name": "A"})]) for t in made]
        assert store.append_many(first) == [None, None, None]
        again = [Append(made[0], [LogRow(2, 0, "back", {"seat": 0})]),
                 Append(made[1], [LogRow(1, 0, "back", {"seat": 0})]),  # seq 1 is taken
                 Append(made[2], [LogRow(2, 0, "back", {"seat": 0}),
                                  LogRow(3, 1, "game", {"game": 1})], new_game=(1, 42))]
        faults = store.append_many(again)
        assert faults[0] is None and faults[2] is None
        assert faults[1] is not None and "UNIQUE" in str(faults[1])
        logs = {t: [(r.seq, r.kind) for r in loaded.log]
                for t in made if (loaded := store.load(t)) is not None}
        assert logs == {made[0]: [(1, "join"), (2, "back")], made[1]: [(1, "join")],
                        made[2]: [(1, "join"), (2, "back"), (3, "game")]}
        loaded = store.load(made[2])
        assert loaded is not None and [(g.number, g.seed) for g in loaded.games] == [(1, 42)]
    finally:
        store.close()
