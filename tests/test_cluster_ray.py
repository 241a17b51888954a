"""``--cluster``: ``bones arena``, ``bones league`` and ``bones lab`` played on a Ray cluster
give what the same run gives on this machine.

One Ray head for the module, started on loopback by ``ray start --head --block`` (two CPUs,
a small object store, no dashboard, no usage reports) and ended by SIGTERM to that process,
which stops every Ray process it started (``ray stop`` would stop every Ray of the machine's
user, other people's included). Its workers import the bones under test (``PYTHONPATH``).
The tests connect by Ray Client (``ray://127.0.0.1:PORT``, what a machine outside the
cluster uses), once for the module through ``bones.sim.ray_workers.Cluster``: every command
run in-process with ``--cluster`` takes that connection up, so the workers are started
once, not per command. One more runs as its own process, joining by the head's own address
(``HOST:PORT``), the way a driver on a node of the cluster does.

The tests that need Ray skip with pip's reason where it is not installed (no wheel for this
Python), unless ``BONES_REQUIRE_CLUSTER=1``; the refusals without Ray run everywhere.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import bones
from bones.cli.main import main
from extras import need

#: Seconds the head may take to start, and to stop, on a loaded two-core machine.
START = 120
STOP = 60
#: Connections tried before the head counts as broken.
CONNECT_TRIES = 3


def _json(capsys: pytest.CaptureFixture[str], *words: str) -> dict[str, object]:
    capsys.readouterr()
    assert main([*words, "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def _free_port() -> int:
    """A port nobody listens on now, from the kernel's ephemeral range (above the ports Ray
    keeps for its workers, 10002 to 19999)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _stop(head: subprocess.Popen[bytes]) -> None:
    """SIGTERM to ``ray start --block``, which drains the node and ends what it started;
    its process group killed only if it has not ended in ``STOP`` seconds."""
    if head.poll() is not None:
        return
    head.send_signal(signal.SIGTERM)
    try:
        head.wait(STOP)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)  # its own session: only what it started
        head.wait(10)


@pytest.fixture(scope="module")
def head() -> Iterator[tuple[str, str]]:
    """A one-node Ray cluster on loopback; yields its Ray Client address and its own (GCS)
    address."""
    need("ray", "Ray", "pip install -e '.[cluster]'", "cluster.log", "BONES_REQUIRE_CLUSTER")
    ray_cli = Path(sys.executable).with_name("ray")
    if not ray_cli.exists():
        pytest.skip(f"Ray is installed but its command is not: {ray_cli}")
    port, client = _free_port(), _free_port()
    # Short: Ray's socket paths under it must stay within the 107 characters a socket allows.
    temp = tempfile.mkdtemp(prefix="bones-ray-", dir="/tmp")
    log = Path(temp) / "head.log"
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0",
           "PYTHONPATH": os.pathsep.join([str(Path(bones.__file__).parents[1]),
                                          os.environ.get("PYTHONPATH", "")])}
    with log.open("wb") as out:
        head = subprocess.Popen(
            [str(ray_cli), "start", "--head", "--block", f"--port={port}",
             f"--ray-client-server-port={client}", "--node-ip-address=127.0.0.1",
             "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
             "--object-store-memory=100000000", f"--temp-dir={temp}"],
            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
            start_new_session=True)
    try:
        deadline = time.monotonic() + START
        while b"Ray runtime started" not in log.read_bytes():
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the Ray head did not start: "
                            + log.read_text(errors="replace")[-2000:])
            time.sleep(0.5)
        yield f"ray://127.0.0.1:{client}", f"127.0.0.1:{port}"
    finally:
        _stop(head)
        shutil.rmtree(temp, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(head: tuple[str, str]) -> Iterator[str]:
    """Connected for the module (the workers start once), by the class the commands use.
    A head that has just started may refuse its first client while its parts still start
    (``Initialization failure from server``), so a refused connection is tried again."""
    from bones.sim.ray_workers import Cluster, ClusterError

    for attempt in range(CONNECT_TRIES):
        try:
            connection = Cluster(head[0])
            break
        except ClusterError:
            if attempt == CONNECT_TRIES - 1:
                raise
            time.sleep(2)
    with connection:
        assert connection.cpus() == 2
        yield head[0]


def test_an_arena_on_the_cluster_is_the_local_arena(cluster, capsys, tmp_path):
    """The same seed, the same match, record for record: and with the SPRT, the same
    verdict at the same deal (here the first look, after 50 of 400 deals)."""
    words = ("arena", "--bots", "greedy,random", "--games", "12", "--seed", "7")
    local = _json(capsys, *words, "--jobs", "1", "--record", str(tmp_path / "local"))
    remote = _json(capsys, *words, "--jobs", "3", "--cluster", cluster,
                   "--record", str(tmp_path / "remote"))
    assert remote == local and local["deals"] == 12
    names = sorted(p.name for p in (tmp_path / "local").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "remote").iterdir())
    assert len(names) == 12 * 2 + 1  # a record per deal and rotation, and arena.json
    for name in names:
        assert (tmp_path / "remote" / name).read_bytes() == \
            (tmp_path / "local" / name).read_bytes(), name
    sprt = ("arena", "--bots", "greedy,random", "--games", "400", "--seed", "5", "--sprt")
    local = _json(capsys, *sprt, "--jobs", "1")
    remote = _json(capsys, *sprt, "--jobs", "4", "--cluster", cluster)
    assert remote == local
    assert local["sprt"]["verdict"] == "H1" and local["deals"] < 400


def test_a_league_on_the_cluster_is_the_local_league(cluster, capsys):
    words = ("league", "--bots", "greedy,random,basic", "--games", "6", "--seed", "3")
    local = _json(capsys, *words, "--jobs", "1")
    assert _json(capsys, *words, "--cluster", cluster) == local
    assert [m["hands"] for m in local["pairs"]] == [12, 12, 12]


def test_a_lab_grid_on_the_cluster_is_the_local_grid(cluster, capsys):
    words = ("lab", "--vary", "players=2..4", "--hands", "1500", "--seed", "11")
    local = _json(capsys, *words, "--jobs", "1")
    assert _json(capsys, *words, "--jobs", "2", "--cluster", cluster) == local
    assert [row["hands"] for row in local["rows"]] == [1500, 1500, 1500]


def _env(**more: str) -> dict[str, str]:
    """The environment of a ``bones`` process that imports the bones under test."""
    return {**os.environ, "RAY_USAGE_STATS_ENABLED": "0",
            "PYTHONPATH": str(Path(bones.__file__).parents[1]), **more}


def test_a_driver_on_the_cluster_gives_the_local_results(head, capsys):
    """``--cluster HOST:PORT`` (a driver on a node of the cluster, the other way in), as
    the command is run: its own process, its own connection, nothing but the JSON on
    standard output."""
    words = ["lab", "--vary", "draw", "--hands", "800", "--seed", "2", "--json", "--quiet"]
    done = subprocess.run([sys.executable, "-m", "bones.cli.main", *words, "--cluster",
                           head[1]], capture_output=True, text=True, env=_env(), timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == _json(capsys, *words[:-2], "--jobs", "1")


def test_an_unreachable_cluster_is_one_line_and_status_2(head, tmp_path):
    """Nothing listens on the port: the command says so in one line, plays nothing and
    makes no record folder. (Ray Client's connection timeouts shortened from 30 s.)"""
    env = _env(RAY_CLIENT_INITIAL_CONNECTION_TIMEOUT_S="1",
               RAY_CLIENT_MAX_CONNECTION_TIMEOUT_S="1")
    address = f"ray://127.0.0.1:{_free_port()}"
    done = subprocess.run(
        [sys.executable, "-m", "bones.cli.main", "arena", "--games", "2", "--cluster",
         address, "--record", str(tmp_path / "records")],
        capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith(f"bones: --cluster {address}: cannot connect to the Ray "
                                  "cluster: ")
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "records").exists()


def test_without_ray_cluster_says_what_to_install(monkeypatch, capsys, tmp_path):
    """Runs everywhere: Ray hidden from the import system, as where it is not installed."""
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` raises ImportError
    assert main(["arena", "--games", "2", "--cluster", "auto", "--record",
                 str(tmp_path / "records")]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == "bones: --cluster needs Ray: pip install 'bones[cluster]'\n"
    assert not (tmp_path / "records").exists()


@pytest.mark.parametrize("address", ["10.0.0.5", "ray://host", "http://h:1", ""])
def test_a_cluster_address_is_read_before_anything(capsys, address):
    with pytest.raises(SystemExit) as stop:
        main(["lab", "--hands", "10", "--cluster", address])
    assert stop.value.code == 2
    assert "--cluster: " in capsys.readouterr().err
