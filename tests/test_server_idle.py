"""Idle tables leave the server's memory (``Hub.evict_idle``) and come back from their log
when next asked for, with their game as it stood. The hub's clock is turned by hand, so
nothing here sleeps through the idle time; the waits are for the server to notice a
socket closing, and are bounded."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from test_server import connect, join, make_table, play_out, serve

pytestmark = pytest.mark.timeout(120)

#: Long enough that the server's own sweep (every minute at this setting) never comes
#: during a test: only the test's calls drop tables, at the times its clock says.
IDLE = 3600.0


def evict(client: Any) -> list[int]:
    hub = client.app.state.hub
    dropped: list[int] = client.portal.call(hub.evict_idle)
    return dropped


def settle(client: Any, table_id: int) -> None:
    """Wait until the table has nothing under way and no socket (the server hears of a
    closed socket a moment after the client closes it)."""
    hub = client.app.state.hub
    deadline = time.monotonic() + 20
    while not client.portal.call(lambda: hub.idle(hub.rounds[table_id])):
        assert time.monotonic() < deadline, "the table did not settle"
        time.sleep(0.01)


def test_an_idle_table_leaves_memory_and_comes_back_from_its_log_with_its_game(tmp_path):
    clock = [1000.0]
    with serve(tmp_path, idle_seconds=IDLE) as client:
        hub = client.app.state.hub
        hub.clock = lambda: clock[0]
        made = make_table(client, "draw", ["human", "greedy"])
        token = join(client, made["invite"], "Ana")
        # a table whose turn timer is running stays, whoever is connected
        timed = make_table(client, "block", ["human", "human"], timer=3600)
        for name in ("Ben", "Cy"):
            join(client, timed["invite"], name)
        with connect(client, token) as ana:
            play_out([ana], [], random.Random(5),
                     until=lambda c: c.view is not None and len(c.view["moves"]) >= 4
                     and c.my_turn())
            view, seq = ana.view, ana.seq
            # a table with a socket connected is never idle, however long
            assert evict(client) == []
            clock[0] += 2 * IDLE
            assert evict(client) == []
        settle(client, 1)
        assert evict(client) == []  # found idle now: the idle time starts
        clock[0] += IDLE - 1
        assert evict(client) == []
        clock[0] += 1
        assert evict(client) == [1]
        assert set(hub.rounds) == {2}

        # a client that comes back with the last number it has: nothing missed
        with connect(client, token, last=seq) as again:
            assert again.frames[-1]["type"] == "status" and again.seq == seq
        assert 1 in hub.rounds
        settle(client, 1)
        evict(client)
        clock[0] += IDLE
        assert evict(client) == [1]
        # one with no number: the whole table, as it stood, and the game goes on
        with connect(client, token) as back:
            assert back.frames[0]["type"] == "state"
            assert back.view == view and back.seq == seq and back.seat == 0
            play_out([back], [], random.Random(6),
                     until=lambda c: c.view is not None
                     and len(c.view["moves"]) > len(view["moves"]))
            assert not back.errors
        settle(client, 1)
        evict(client)
        clock[0] += IDLE
        assert evict(client) == [1]
        # the API takes a table up again too
        info = client.post("/api/table", json={"invite": made["invite"]})
        assert info.status_code == 200 and info.json()["seq"] > seq
        assert 1 in hub.rounds


def test_a_server_set_never_to_drop_tables_keeps_them(tmp_path):
    with serve(tmp_path, idle_seconds=None) as client:
        hub = client.app.state.hub
        clock = [0.0]
        hub.clock = lambda: clock[0]
        made = make_table(client, "block", ["human", "greedy"])
        join(client, made["invite"], "Ana")
        settle(client, 1)
        for _ in range(2):
            assert evict(client) == []
            clock[0] += 10 * IDLE
        assert set(hub.rounds) == {1}
