"""A balance run's battles in worker processes, and its log of battles, which resumes a run.

Each battle is fixed by the run's seed, its matchup and its number (`harness`), so the
battles can be played in any order, by any process, and the run's report is the same: the
results are put back in the run's own order. A search bot's battle takes minutes, and a
run of them hours, so `--jobs` plays one a core at a time.

The log (`--log`) holds the run's plan on its first line and then one line per battle, each
written and flushed as the battle ends. A run given the log of an earlier run of the same
plan plays only the battles it lacks, so a run stopped on the way (a killed process, a
machine that went down) goes on where it was, and a run given more battles a matchup than the
log's plays only the new ones (battle n is the same battle in any run of the plan). A last
line cut short by the stop is dropped when the run starts writing; any other line that is
not a battle of the plan is an error, and the run plays and writes nothing."""
from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict
from pathlib import Path
from typing import IO, Any

import orjson

from domain.engine.errors import InvalidInput
from domain.engine.ruleset import Matchup, get_ruleset

from .harness import Fought, Plan, play_matchup

Key = tuple[str, int]                  # a battle of the run: its matchup's label and its number


def battles(run: Plan) -> list[tuple[Matchup, int]]:
    """Every battle of the run, in the run's order: matchup by matchup, number by number."""
    return [(matchup, number) for matchup in run.matchups for number in run.numbers(matchup)]


def play_plan(run: Plan, each: Callable[[Fought, int], None] | None = None, jobs: int = 1,
              done: dict[Key, Fought] | None = None) -> list[Fought]:
    """Every battle of the run, in its order: those in `done` as they are, the rest played, in
    this process or in `jobs` worker processes. `each` hears of each one played as it ends,
    with its number."""
    done = dict(done or {})
    wanted = [(m, n) for m, n in battles(run) if (m.label, n) not in done]
    for fought, number in (played_here(run, wanted) if jobs <= 1 else played_apart(run, wanted, jobs)):
        done[(fought.label, number)] = fought
        if each is not None:
            each(fought, number)
    return [done[(m.label, n)] for m, n in battles(run)]


def played_here(run: Plan, wanted: Sequence[tuple[Matchup, int]]) -> Iterator[tuple[Fought, int]]:
    for matchup, number in wanted:
        yield play_matchup(run, matchup, number), number


def played_apart(run: Plan, wanted: Sequence[tuple[Matchup, int]], jobs: int) -> Iterator[tuple[Fought, int]]:
    """The battles played `jobs` at a time in fresh worker processes, as each one ends. A
    worker rebuilds the run from its ruleset's id, so nothing but plain data crosses over."""
    shape = (run.ruleset.id, run.matchups, run.bots, run.battles, run.seed, run.first_on)
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    try:
        pending: dict[Future[Fought], int] = {pool.submit(fight, shape, m.label, n): n for m, n in wanted}
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result(), pending.pop(future)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def fight(shape: tuple[Any, ...], label: str, number: int) -> Fought:
    """One battle, in a worker process."""
    ruleset_id, matchups, bots, battles, seed, first_on = shape
    run = Plan(ruleset=get_ruleset(ruleset_id), matchups=matchups, bots=bots, battles=battles, seed=seed,
               first_on=first_on)
    return play_matchup(run, next(m for m in run.matchups if m.label == label), number)


def without_count(plan: Any) -> Any:
    """A plan but for its battles per matchup: a battle is the same battle in a longer run."""
    return {key: value for key, value in plan.items() if key != "battles_per_matchup"} \
        if isinstance(plan, dict) else plan


class BattleLog:
    """The run's log: its plan, then a line per battle played (see the module's text)."""

    def __init__(self, path: Path, run: Plan) -> None:
        self.path, self.run = path, run
        self.file: IO[bytes] | None = None
        self.begun = False                             # the file holds the plan already
        self.whole: int | None = None                  # the bytes before a last line cut short

    def read(self) -> dict[Key, Fought]:
        """The battles an earlier run of the same plan logged; none for a new log."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise InvalidInput("log", f"cannot read {self.path}: {exc.strerror}") from None
        lines = data.split(b"\n")
        if lines[-1]:                                  # cut short by a stop: dropped by `open`
            self.whole = len(data) - len(lines[-1])
        lines = lines[:-1]
        if not lines:
            return {}
        if without_count(self.header(lines[0])) != without_count(self.run.as_json()):
            raise InvalidInput("log", f"{self.path} is the log of another run (its ruleset, version, content, "
                                      "bots, seed or matchups differ): give a new file")
        labels = {m.label for m in self.run.matchups}
        logged = dict(self.battle(line, at, labels) for at, line in enumerate(lines[1:], 2))
        self.begun = True
        return {key: fought for key, fought in logged.items() if key[1] < self.run.battles}

    def header(self, line: bytes) -> Any:
        try:
            return orjson.loads(line).get("plan")
        except (orjson.JSONDecodeError, AttributeError):
            raise InvalidInput("log", f"{self.path} line 1 is not a balance log's plan") from None

    def battle(self, line: bytes, at: int, labels: set[str]) -> tuple[Key, Fought]:
        try:
            fields = orjson.loads(line)
            number = fields.pop("number")
            fought = Fought(**{**fields, "sides": tuple(fields["sides"])})
        except (orjson.JSONDecodeError, AttributeError, KeyError, TypeError):
            raise InvalidInput("log", f"{self.path} line {at} is not a battle of this run") from None
        if fought.label not in labels or not (isinstance(number, int) and number >= 0):
            raise InvalidInput("log", f"{self.path} line {at} is not a battle of this run")
        return (fought.label, number), fought

    def open(self) -> None:
        """Ready to append (after `read`): a last line cut short is dropped, and a new log starts
        with the plan."""
        try:
            if self.whole is not None:
                with self.path.open("r+b") as file:
                    file.truncate(self.whole)
            self.file = self.path.open("ab")
            if not self.begun:
                self.write({"plan": self.run.as_json()})
        except OSError as exc:
            raise InvalidInput("log", f"cannot write {self.path}: {exc.strerror}") from None

    def append(self, fought: Fought, number: int) -> None:
        self.write({"number": number, **asdict(fought)})

    def write(self, record: dict[str, Any]) -> None:
        assert self.file is not None
        self.file.write(orjson.dumps(record) + b"\n")
        self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()
