"""A class of 100 on one small server: concurrent sessions against a real app server.

Run: python -m bench.load [--typists 60] [--steppers 30] [--trainers 10] [--seconds 120]

Starts `streamlit run app.py` and first times a cold server's first page (the first session's
first script run, which loads the default vocabulary). Then it drives a class through
Streamlit's own websocket protocol (bench/streamlit_client.py: the same reruns a browser asks
for), all at once for `--seconds`:

- typists on the Playground, about 40 words a minute, reading the tokens for a few seconds
  after each sentence, now and then switching the encoding; each keystroke is sent as the
  live box sends it: at once while the server is idle, at most one per *pace* when it is busy
  (ui/common/server_load.py);
- steppers on the Merges page (half in presentation mode), a step every one to three seconds,
  as a class reading each step's table;
- trainers on the Train page, each training its own small vocabulary of the bundled samples,
  watching the progress bar, then training the next size.

A keystroke typed while the session's previous run is still going (or within the pace) waits
and goes with the next request, holding the latest text, as the box would send it. Prints
p50 / p95 / max per action (a rerun: from its request to its last message), the time from each
sent batch's first keystroke to its tokens, errors, and the servers' memory.
Targets (issue 14.6): 0 errors, p95 rerun < 0.5 s, memory per session < 5 MB, a cold first
page < 1.5 s.
"""

import argparse
import asyncio
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.streamlit_client import RunResult, Session  # noqa: E402
from tests.e2e.harness import AppServer, behind_nginx, find_nginx, running_app  # noqa: E402

PARAGRAPH = (
    "Byte pair encoding starts from single bytes and keeps merging the most frequent pair. "
    "In 2024 the café sold 1,234 croissants 🥐; the tokenizer splits numbers, accents and emoji "
    "differently in GPT-2, cl100k_base and o200k_base. def main():\n    return 42\n"
)
MERGES_TEXT = "Students learn how GPT-2 merges bytes: tokenization isn't magic, it's ranks!"
KEYS_PER_S = 3.5  # about 40 words a minute
READ_S = (2.0, 5.0)  # after a sentence, a typist reads its tokens
STEP_EVERY_S = (1.0, 3.0)  # a class stepping through merges, reading each step's table
TRAIN_CORPUS = "Languages & code samples"  # the bundled corpus's title in the picker
TRAIN_SIZES = (384, 512, 640, 768)  # small vocabularies: each trainer its own sizes
TARGET_P95_S, TARGET_MB_PER_SESSION, TARGET_FIRST_PAGE_S = 0.5, 5.0, 1.5


@dataclass
class Recorder:
    """Every rerun's latency by action, and everything that went wrong."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)
    # From a keystroke to its tokens on screen: the rerun, plus any wait for the previous one
    # or for the server's pace. Not a rerun, so not in the reruns' figures.
    seen_after_key: list[float] = field(default_factory=list)
    paces: list[float] = field(default_factory=list)  # the server's pace at each send

    def add(self, action: str, result: RunResult) -> RunResult:
        self.latencies[action].append(result.seconds)
        self.errors.extend(f"{action}: {e}" for e in result.errors)
        return result

    def report(self, title: str) -> list[float]:
        everything = [s for values in self.latencies.values() for s in values]
        print(f"\n{title}")
        for action, values in sorted(self.latencies.items()):
            print(f"  {action:22} {_summary(values)}")
        print(f"  {'all reruns':22} {_summary(everything)}")
        if self.seen_after_key:
            print(f"  {'keystroke to tokens':22} {_summary(self.seen_after_key)}")
        if self.paces:
            print(f"  {'pace at a send':22} {_summary(self.paces)}")
        print(f"  errors: {len(self.errors)}" + "".join(f"\n    {e}" for e in self.errors[:10]))
        return everything


def _summary(values: list[float]) -> str:
    if not values:
        return "no reruns"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (
        f"n={len(values):5}  p50 {statistics.median(values) * 1000:6.0f} ms"
        f"  p95 {p95 * 1000:6.0f} ms  max {max(values) * 1000:6.0f} ms"
    )


# ---- the server (started by tests/e2e/harness.py, as for the browser tests) ---------------------


def rss_mb(pid: int, *, workers: bool = True) -> float:
    """Resident memory of the server (and, with `workers`, the processes it started), in MB."""
    total = 0
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += int(
                next(line for line in status.splitlines() if line.startswith("VmRSS")).split()[1]
            )
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                pending.extend(int(c) for c in children if workers)
        except (OSError, StopIteration):
            continue
    return total / 1024


def cpu_seconds(pid: int) -> float:
    """User and system CPU time the process `pid` has used so far (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class MemorySample:
    seconds: float  # since the class started
    server_mb: float  # the server processes: the sessions and the caches
    workers_mb: float  # their training processes (at most MAX_PARALLEL_TRAININGS at once)
    cpu: float  # the servers' CPU use since the last sample, in cores (a process: at most ~1)


async def sample_memory(pids: list[int], every_s: float, samples: list[MemorySample]) -> None:
    """Record the memory and CPU use of the servers `pids` every `every_s` s until cancelled."""
    start = last = time.monotonic()
    used = sum(cpu_seconds(pid) for pid in pids)
    while True:
        await asyncio.sleep(every_s)
        now, cpu = time.monotonic(), sum(cpu_seconds(pid) for pid in pids)
        server = sum(rss_mb(pid, workers=False) for pid in pids)
        workers = sum(rss_mb(pid) for pid in pids) - server
        samples.append(MemorySample(now - start, server, workers, (cpu - used) / (now - last)))
        last, used = now, cpu


# ---- what users do ------------------------------------------------------------------------


def keystroke_times(rng: random.Random, start: float, text: str) -> list[float]:
    """When each character of `text` is typed: jittered keys, a pause to read after a sentence."""
    times, now = [], start
    for char in text:
        now += rng.uniform(0.5, 1.5) / KEYS_PER_S
        times.append(now)
        if char in ".;\n":
            now += rng.uniform(*READ_S)
    return times


async def typist(base_url: str, deadline: float, rec: Recorder, seed: int) -> None:
    """Types the paragraph into the Playground, again and again, switching encodings between."""
    rng = random.Random(seed)
    async with Session(base_url) as session:
        rec.add("open playground", await session.rerun(page=""))
        encodings = len(session.key_of("common.enc").options)
        while time.monotonic() < deadline:
            times = keystroke_times(rng, time.monotonic(), PARAGRAPH)
            sent = 0
            sent_at = -1e9
            while sent < len(times) and time.monotonic() < deadline:
                # The box sends at the keystroke, or once the server's pace allows (busy).
                await asyncio.sleep(max(0.0, times[sent] - time.monotonic()))
                await asyncio.sleep(max(0.0, sent_at + session.pace_s - time.monotonic()))
                sent_at = time.monotonic()
                rec.paces.append(session.pace_s)
                # Every keystroke made by now goes in this request (the box sends the latest).
                now = time.monotonic()
                typed = sent + 1
                while typed < len(times) and times[typed] <= now:
                    typed += 1
                session.set_text("playground.text_box", PARAGRAPH[:typed])
                rec.add("keystroke", await session.rerun())
                keyed = time.monotonic() - times[sent]
                rec.seen_after_key.append(keyed)
                sent = typed
            session.set_text("playground.text_box", "")  # select all, delete
            rec.add("clear text", await session.rerun())
            if rng.random() < 0.3:
                session.choose("common.enc", rng.randrange(encodings))
                rec.add("switch encoding", await session.rerun())


async def stepper(base_url: str, deadline: float, rec: Recorder, seed: int) -> None:
    """Opens a Merges link (half of them presenting) and steps along, back to the start at
    the end; now and then a step back."""
    rng = random.Random(seed)
    present = "&present=1" if seed % 2 else ""
    async with Session(base_url) as session:
        await session.rerun(page="")
        query = f"text={MERGES_TEXT.replace(' ', '+')}{present}"
        rec.add("open merges", await session.rerun(page="merges", query=query))
        session.click("merges.first")
        rec.add("merges first", await session.rerun())
        step = 0
        while time.monotonic() < deadline:
            await asyncio.sleep(rng.uniform(*STEP_EVERY_S))
            last = session.key_of("merges.step").maximum or 0
            if step >= last:  # the last step: start over
                session.click("merges.first")
                step = 0
            elif step > 0 and rng.random() < 0.1:
                session.click("merges.back")
                step -= 1
            else:
                session.click("merges.next")
                step += 1
            rec.add("merges step", await session.rerun())


async def trainer(base_url: str, deadline: float, rec: Recorder, seed: int) -> list[float]:
    """Trains small vocabularies of the bundled samples, one after another, watching each;
    returns how long each took from pressing Train to its vocabulary on screen."""
    took: list[float] = []
    async with Session(base_url) as session:
        await session.rerun(page="")
        rec.add("open train", await session.rerun(page="train"))
        options = session.key_of("train.bundled").options
        session.choose("train.bundled", options.index(TRAIN_CORPUS))
        rec.add("train settings", await session.rerun())
        for round_ in range(len(TRAIN_SIZES)):
            if time.monotonic() > deadline:
                break
            size = TRAIN_SIZES[round_] + 8 * seed  # every trainer a vocabulary of its own
            session.set_number("train.vocab", size)
            rec.add("train settings", await session.rerun())
            session.click("train.train")
            start = time.monotonic()
            result = rec.add("press train", await session.rerun())
            while session.timers:  # the progress panel polls while the training runs
                timer, seconds = next(iter(session.timers.items()))
                await asyncio.sleep(seconds)
                result = rec.add("progress poll", await session.tick(timer))
            took.append(time.monotonic() - start)
            if "train.selected" not in session.widgets:  # the new vocabulary's picker
                rec.errors.append(f"training ended without a vocabulary: {result.alerts}")
            await asyncio.sleep(5.0)  # a look at the replay before the next size
    return took


@dataclass
class Class:
    """Who is in the class, and what each role recorded."""

    typists: int
    steppers: int
    trainers: int
    roles: dict[str, Recorder] = field(default_factory=dict)
    trainings: list[float] = field(default_factory=list)

    @property
    def sessions(self) -> int:
        return self.typists + self.steppers + self.trainers


async def run_class(base_url: str, seconds: float, group: Class) -> None:
    """Every session at once for `seconds`; they join a few at a time, as a class logs in."""
    deadline = time.monotonic() + seconds
    group.roles = {name: Recorder() for name in ("typists", "steppers", "trainers")}
    tasks = []
    joining = [("typists", n) for n in range(group.typists)]
    joining += [("steppers", n) for n in range(group.steppers)]
    joining += [("trainers", n) for n in range(group.trainers)]
    random.Random(0).shuffle(joining)
    for role, n in joining:
        rec = group.roles[role]
        if role == "typists":
            tasks.append(asyncio.create_task(typist(base_url, deadline, rec, n)))
        elif role == "steppers":
            tasks.append(asyncio.create_task(stepper(base_url, deadline, rec, n)))
        else:
            tasks.append(asyncio.create_task(trainer(base_url, deadline, rec, n)))
        await asyncio.sleep(0.05)
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for (role, _), outcome in zip(joining, results, strict=True):
        if isinstance(outcome, BaseException):
            group.roles[role].errors.append(f"session crashed: {outcome!r}")
        elif isinstance(outcome, list):
            group.trainings.extend(outcome)


async def warm_up(base_url: str) -> dict[str, float]:
    """Load every bundled encoding and open every page once, as the first users of a fresh
    server would; returns the seconds of each page's first visit."""
    async with Session(base_url) as session:
        await session.rerun()
        for index in range(len(session.key_of("common.enc").options)):
            session.choose("common.enc", index)
            await session.rerun()
        session.choose("common.enc", 0)
        firsts = {}
        paths = {page_hash: path for path, page_hash in session.pages.items() if path.islower()}
        for path in paths.values():  # one path per page (the navigation also lists titles)
            firsts[path or "playground"] = (await session.rerun(page=path)).seconds
        return firsts


async def first_page(base_url: str) -> float:
    """Seconds for a cold server's first page: the first session's first script run."""
    async with Session(base_url) as session:
        result = await session.rerun(page="")
        if result.errors:
            raise RuntimeError(f"the first page failed: {result.errors}")
        return result.seconds


# ---- the run ------------------------------------------------------------------------------


@contextmanager
def serving(replicas: int) -> Iterator[tuple[str, list[AppServer]]]:
    """One app server, or `replicas` of them behind docs/deploy/nginx.conf."""
    if replicas == 1:
        with running_app() as app:
            yield app.url, [app]
        return
    nginx = find_nginx()
    if nginx is None:
        raise SystemExit("--replicas needs nginx (apt-get install nginx)")
    with behind_nginx(nginx, replicas) as served:
        yield served


async def main_async(args: argparse.Namespace) -> int:
    spawned = time.monotonic()
    with serving(args.replicas) as (url, apps):
        up = time.monotonic() - spawned
        first = await first_page(url)
        print(f"cold server ({args.replicas} process{'es' if args.replicas > 1 else ''}): up "
              f"(health check answers) {up:.2f} s after start; first page {first:.2f} s later "
              f"(target < {TARGET_FIRST_PAGE_S} s)")  # fmt: skip
        group = Class(args.typists, args.steppers, args.trainers)
        return await measure(args, url, apps, group, first)


async def measure(
    args: argparse.Namespace, url: str, apps: list[AppServer], group: Class, first: float
) -> int:
    """Warm the server up, drive the class, print the report; 0 if the targets are met."""
    memory: list[MemorySample] = []
    for app in apps:
        firsts = await warm_up(app.url)
    print("first visit of each page (once per server): "
          + ", ".join(f"{page} {seconds:.2f} s" for page, seconds in firsts.items()))  # fmt: skip
    pids = [app.process.pid for app in apps]
    baseline = sum(rss_mb(pid, workers=False) for pid in pids)
    sampler = asyncio.create_task(sample_memory(pids, 10.0, memory))
    print(f"{group.sessions} sessions ({group.typists} typing, {group.steppers} stepping merges, "
          f"{group.trainers} training) for {args.seconds:.0f} s against {url}; server RSS "
          f"after warm-up {baseline:.0f} MB")  # fmt: skip
    client_cpu, started = time.process_time(), time.monotonic()
    await run_class(url, args.seconds, group)
    client_cores = (time.process_time() - client_cpu) / (time.monotonic() - started)
    sampler.cancel()
    everything: list[float] = []
    errors = 0
    for role, rec in group.roles.items():
        everything += rec.report(role)
        errors += len(rec.errors)
    if group.trainings:
        print(f"  {len(group.trainings)} trainings, each from pressing Train to its vocabulary: "
              f"{min(group.trainings):.1f}-{max(group.trainings):.1f} s")  # fmt: skip
    samples = (
        f"{m.seconds:.0f}s {m.server_mb:.0f}+{m.workers_mb:.0f} MB {m.cpu:.2f}" for m in memory
    )
    print("\nevery 10 s: server MB + training processes MB, server CPU in cores: "
          + ", ".join(samples))  # fmt: skip
    print(f"this client (100 sessions' protocol) used {client_cores:.2f} cores; the machine has "
          f"{os.cpu_count()}")  # fmt: skip
    peak = max(m.server_mb for m in memory)
    per_session = (peak - baseline) / group.sessions
    print(f"server: {baseline:.0f} MB after warm-up, peak {peak:.0f} MB: {per_session:.1f} MB "
          f"per session (target < {TARGET_MB_PER_SESSION}); training processes at most "
          f"{max(m.workers_mb for m in memory):.0f} MB")  # fmt: skip
    ordered = sorted(everything)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    ok = (
        p95 < TARGET_P95_S
        and errors == 0
        and per_session < TARGET_MB_PER_SESSION
        and first < TARGET_FIRST_PAGE_S
    )
    print(f"\nverdict: all reruns p95 {p95 * 1000:.0f} ms, {errors} errors, "
          f"{per_session:.1f} MB per session, first page {first:.2f} s -> "
          f"{'targets met' if ok else 'TARGETS MISSED'}")  # fmt: skip
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--typists", type=int, default=60)
    parser.add_argument("--steppers", type=int, default=30)
    parser.add_argument("--trainers", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--replicas", type=int, default=1, help="app processes behind nginx")
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
