#!/usr/bin/env python3
"""Mutation run of the firmware's safety paths: each mutant is a small textual patch (a bug a review found, or one
that would undo a safety path) applied to a copy of firmware/ in a temporary directory, never to the checkout; it
must be caught by the C unit tests (``make test``), the static check of the stm32f405 image
(tests/firmware/test_static.py) or the hardware suite (``python -m hw_tests --firmware host|qemu``) run on the
mutant's build. A mutant nothing catches is a safety path no test exercises: the run fails and names it.

    python firmware/tests/mutate.py                 every mutant, stopping at its first catcher; exit 1 if one survives
    python firmware/tests/mutate.py --all           every stage for every mutant: the table of who catches what
    python firmware/tests/mutate.py --only NAME...  some of them
    python firmware/tests/mutate.py --list

Every new safety path gets a mutant here. A mutant's ``checks`` are the suite checks run on it (the whole suite when
empty); ``boards`` the suite's boards (host unless the code runs only in another). Mutants run two at a time (-j).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parent.parent
REPO = FIRMWARE.parent


@dataclass(frozen=True)
class Mutant:
    name: str
    path: str  # under firmware/
    old: str
    new: str
    why: str
    checks: tuple[str, ...] = ()
    boards: tuple[str, ...] = ("host",)
    review: bool = field(default=False)  # one of the ten of the issue-28 review


MUTANTS = (
    # -- the review of issue 28 --------------------------------------------------------------------------------
    Mutant(
        "lowering-unbounded",
        "src/core/table.c",
        "    t.deadline[which] = now + limit(which, direction, wall_tiles);",
        "    t.deadline[which] = which >= HAL_MOTOR_LIFT0 && direction < 0 ? UINT64_MAX"
        " : now + limit(which, direction, wall_tiles);",
        "lowering runs until its switches close",
        ("lowering switch never closes",),
        review=True,
    ),
    Mutant(
        "disc-unbounded",
        "src/core/table.c",
        "    t.deadline[which] = now + limit(which, direction, wall_tiles);",
        "    t.deadline[which] = which == HAL_MOTOR_DISC ? UINT64_MAX : now + limit(which, direction, wall_tiles);",
        "the disc turns until its index sensor has counted a mix",
        ("disc index never counts",),
        review=True,
    ),
    Mutant(
        "hatch-unbounded",
        "src/core/table.c",
        "    t.deadline[which] = now + limit(which, direction, wall_tiles);",
        "    t.deadline[which] = which == HAL_MOTOR_HATCH ? UINT64_MAX : now + limit(which, direction, wall_tiles);",
        "the hatch runs until its switch closes",
        ("hatch switch never closes",),
        review=True,
    ),
    Mutant(
        "no-step-limit",
        "src/core/stepper.c",
        "    if (s->steps >= s->limit) {",
        "    if (0) {",
        "a stepper makes steps for ever",
        ("stepper step limit",),
        review=True,
    ),
    Mutant(
        "unbounded-read",
        "src/core/core.c",
        "    while (taken < RX_BUDGET && (byte = hal_serial_getc()) >= 0) {",
        "    while ((byte = hal_serial_getc()) >= 0) {",
        "the poll reads the serial line as long as bytes come",
        ("line flood",),
        review=True,
    ),
    Mutant(
        "hard-fault-leaves-outputs",
        "boards/stm32f4/startup.c",
        "    irq_disable();\n    hal_safe_outputs();\n    chip_halt();",
        "    irq_disable();\n    chip_halt();",
        "the hard-fault handler spins with the PWM running",
        ("hard fault",),
        ("qemu",),
        review=True,
    ),
    Mutant(
        "no-watchdog-kick",
        "src/core/core.c",
        "    hal_watchdog_kick();\n",
        "",
        "nothing feeds the watchdog",
        ("full cycle", "tile-count change", "stacker jam"),
        review=True,
    ),
    Mutant(
        "over-current-ignored",
        "src/core/table.c",
        "    check_drivers();\n    check_step_limits();",
        "    check_step_limits();",
        "a driver's fault output is never read",
        ("over-current",),
        review=True,
    ),
    Mutant(
        "frame-length-off-by-one",
        "src/core/frame.c",
        "len > FRAME_MAX_LEN",
        "len >= FRAME_MAX_LEN",
        "the longest frame is refused",
        review=True,
    ),
    Mutant(
        "top-switch-ignored",
        "src/core/table.c",
        "        if (t.motor[HAL_MOTOR_LIFT0 + side] && (t.sensors & SENSOR_LIFT_UP(side)))\n",
        "        if (0)\n",
        "a plate at its top switch keeps its motor on",
        ("full cycle",),
        review=True,
    ),
    # -- the other findings and every new safety path -----------------------------------------------------------
    Mutant(
        "clear-without-check",
        "src/core/table.c",
        "    if (hal_driver_faults())\n        return RESULT_DRIVER_FAULT;\n",
        "",
        "CLEAR_FAULT clears with the driver still at fault",
        ("driver fault at rest",),
    ),
    Mutant(
        "clear-despite-switch-conflict",
        "src/core/table.c",
        "    if (sensors_conflict(hal_sensors()))\n        return RESULT_SENSOR_CONFLICT;\n",
        "",
        "CLEAR_FAULT clears with contradicting end switches",
    ),
    Mutant(
        "driver-fault-only-when-running",
        "src/core/table.c",
        "    if (!faults || (t.fault.kind != FAULT_NONE && !table_motors_on()))",
        "    if (!faults || !table_motors_on())",
        "a driver at fault at rest is ignored",
        ("driver fault at rest",),
    ),
    Mutant(
        "no-brown-out-level",
        "boards/stm32f405/main.c",
        "    (void)brownout_level(FLASH_REGS, BOR_LEVEL); /* once per chip; later boots find it set */\n",
        "",
        "the option bytes are never written",
        boards=(),
    ),
    Mutant(
        "brown-out-bits-unset",
        "boards/stm32f4/option_bytes.c",
        "    flash->optcr = (flash->optcr & ~FLASH_OPTCR_BOR_MASK) | level;\n",
        "",
        "the option bytes are programmed without the level",
        boards=(),
    ),
    Mutant(
        "driver-fault-not-cut-in-interrupt",
        "boards/stm32f405/motion.c",
        "not at the core's next poll */\n            hal_safe_outputs();",
        "not at the core's next poll */",
        "a driver's fault waits for the main loop",
        boards=(),
    ),
    Mutant(
        "lift-unbounded",
        "src/core/table.c",
        "    t.deadline[which] = now + limit(which, direction, wall_tiles);",
        "    t.deadline[which] = which >= HAL_MOTOR_LIFT0 && direction > 0 ? UINT64_MAX"
        " : now + limit(which, direction, wall_tiles);",
        "lifting runs until the top switches close",
        ("lift travel timeout",),
    ),
    Mutant(
        "dice-unbounded",
        "src/core/table.c",
        "    case HAL_MOTOR_DICE: nominal = hal_nominal_us(HAL_NOMINAL_DICE); break;",
        "    case HAL_MOTOR_DICE: return UINT64_MAX / 2;",
        "the dice roll until they settle",
    ),
    Mutant(
        "wall-unbounded",
        "src/core/table.c",
        "((wall_tiles + 1u) / 2u + 1u)",
        "((wall_tiles + 1u) / 2u + 1u) * 1000u",
        "a wall takes for ever, each stack within k of the last",
    ),
    Mutant(
        "step-limit-report-ignored",
        "src/core/table.c",
        "        if (t.motor[m] && stepper(which) && hal_step_limit_reached(which)) {",
        "        if (t.motor[m] && stepper(which) && hal_step_limit_reached(which) && 0) {",
        "the board's step-limit stop is not latched",
        ("stepper step limit",),
    ),
    Mutant(
        "stepper-end-switch-ignored",
        "src/core/stepper.c",
        "    if (at_end) {",
        "    if (0) {",
        "a stepper drives into its closed end switch",
    ),
    Mutant(
        "fault-leaves-outputs",
        "src/core/table.c",
        "    memset(t.motor, 0, sizeof t.motor);\n    hal_safe_outputs();",
        "    memset(t.motor, 0, sizeof t.motor);",
        "a fault forgets its motors but leaves them running",
        ("emergency stop", "stacker jam"),
    ),
    Mutant(
        "boot-leaves-outputs",
        "src/core/table.c",
        "    memset(&t, 0, sizeof t);\n    hal_safe_outputs();",
        "    memset(&t, 0, sizeof t);",
        "a boot does not drive the outputs safe",
        ("MCU reset mid-build",),
    ),
    Mutant(
        "watchdog-test-does-not-stall",
        "src/core/core.c",
        "    if (table_watchdog_test())\n        stall();\n",
        "",
        "DIAGNOSTIC 15 leaves the main loop running",
        ("stalled main loop",),
    ),
    Mutant(
        "host-silence-ignored",
        "src/core/core.c",
        "    watchdog(now);\n",
        "",
        "a silent host leaves the motors running",
        ("host-silence watchdog",),
    ),
    Mutant(
        "jam-ignored",
        "src/core/table.c",
        "    if (jammed != NO_SIDE)\n        table_stop_all(FAULT_JAM, MECH_STACKER, jammed);\n",
        "",
        "a stacker that stops counting is not a jam",
        ("stacker jam",),
    ),
    Mutant(
        "duplicates-run-twice",
        "src/core/core.c",
        "    } else if (c.has_last && f->seq == c.last_seq && f->type == c.last_type) {",
        "    } else if (0) {",
        "a retransmitted command runs again",
        ("noisy line",),
    ),
)


@dataclass
class Verdict:
    mutant: Mutant
    caught_by: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def caught(self) -> bool:
        return bool(self.caught_by)


def _run(command: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: float = 600) -> tuple[int, str]:
    try:
        done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, f"timed out after {timeout:.0f} s"
    return done.returncode, done.stdout + done.stderr


def _copy(work: Path) -> Path:
    target = work / "firmware"
    shutil.copytree(FIRMWARE, target, ignore=shutil.ignore_patterns("build", "__pycache__", "*.pyc"))
    return target


def mutate(mutant: Mutant, work: Path) -> Path:
    copy = _copy(work)
    source = copy / mutant.path
    text = source.read_text()
    if text.count(mutant.old) != 1:
        raise SystemExit(f"mutant {mutant.name}: its text is in {mutant.path} {text.count(mutant.old)} times, not once")
    source.write_text(text.replace(mutant.old, mutant.new))
    makefile = copy / "Makefile"  # a mutant may leave a function unused: a warning, not a build that stops
    makefile.write_text(makefile.read_text().replace(" -Werror", ""))
    return copy


def stage_unit(copy: Path) -> tuple[bool, str]:
    """The C unit tests on the mutant: caught when they fail (a mutant that does not build is an error)."""
    code, out = _run(["make", "-s", "build/test/unit"], copy)
    if code:
        raise RuntimeError(f"the unit tests do not build: {out.strip().splitlines()[-1:]}")
    code, out = _run(["build/test/unit"], copy, timeout=120)
    summary = next((line for line in out.splitlines() if " passed, " in line), out.strip()[-200:])
    first = next((line.split(": ", 2)[-1] for line in out.splitlines() if "check failed" in line), "")
    return code != 0, f"{summary}; {first}" if first else summary


def stage_static(copy: Path) -> tuple[bool, str]:
    env = {**os.environ, "MJTABLE_FIRMWARE_DIR": str(copy), "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "pytest", "-q", "-n", "0", "-m", "slow", "-p", "no:cacheprovider",
               "tests/firmware/test_static.py"]  # fmt: skip
    code, out = _run(command, REPO, env)
    if code not in (0, 1):
        raise RuntimeError(f"the static check did not run: {out.strip().splitlines()[-1:]}")
    return code == 1, out.strip().splitlines()[-1] if out.strip() else ""


def stage_suite(copy: Path, board: str, checks: tuple[str, ...]) -> tuple[bool, str]:
    env = {**os.environ, "MJTABLE_FIRMWARE_DIR": str(copy), "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "hw_tests", "--firmware", board, "--speed", "50", "--seed", "3", "--json",
               *(f"--check={name}" for name in checks)]  # fmt: skip
    code, out = _run(command, REPO, env, timeout=900)
    failed = [line.split('"name": "')[1].split('"')[0] for line in out.splitlines() if '"status": "FAIL"' in line]
    if code == 2:
        return True, f"the suite could not run: {out.strip().splitlines()[-1:]}"
    return code != 0, ", ".join(failed)


def judge(mutant: Mutant, everything: bool) -> Verdict:
    verdict, start = Verdict(mutant), time.monotonic()
    with tempfile.TemporaryDirectory(prefix=f"mutant-{mutant.name}-") as work:
        copy = mutate(mutant, Path(work))
        stages = [("unit tests", lambda: stage_unit(copy))]
        if everything or mutant.path.startswith("boards/"):
            stages.append(("static check", lambda: stage_static(copy)))
        stages += [(f"hw_tests --firmware {board}", lambda board=board: stage_suite(copy, board, mutant.checks))
                   for board in mutant.boards]  # fmt: skip
        for name, stage in stages:
            try:
                caught, detail = stage()
            except RuntimeError as exc:
                verdict.notes.append(f"{name}: ERROR {exc}")
                break
            if caught:
                verdict.caught_by.append(name + (f" ({detail})" if detail else ""))
                if not everything:
                    break
            verdict.notes.append(f"{name}: {'CAUGHT' if caught else 'passed'} {detail}".strip())
    verdict.seconds = time.monotonic() - start
    return verdict


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="run every stage for every mutant (who catches what)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these mutants only")
    parser.add_argument("--list", action="store_true", help="list the mutants and exit")
    parser.add_argument("-j", "--jobs", type=int, default=2, help="mutants at a time (default 2)")
    args = parser.parse_args(argv)
    mutants = [m for m in MUTANTS if not args.only or m.name in args.only]
    if args.list:
        for m in MUTANTS:
            print(f"{m.name:36} {m.path:28} {'review ' if m.review else ''}{m.why}")
        return 0
    unknown = set(args.only or ()) - {m.name for m in MUTANTS}
    if unknown:
        parser.error(f"no mutant named {', '.join(sorted(unknown))}")
    start = time.monotonic()
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        verdicts = list(pool.map(lambda m: judge(m, args.all), mutants))
    width = max(len(m.name) for m in mutants)
    for v in verdicts:
        tag = "review" if v.mutant.review else "      "
        print(
            f"{v.mutant.name:{width}}  {tag}  {'CAUGHT' if v.caught else 'SURVIVED':8} {v.seconds:5.0f} s  "
            f"{'; '.join(v.caught_by) or '; '.join(v.notes)}",
            flush=True,
        )
    survivors = [v.mutant.name for v in verdicts if not v.caught]
    review = [v for v in verdicts if v.mutant.review]
    print(
        f"{len(verdicts) - len(survivors)} of {len(verdicts)} mutants caught ({sum(v.caught for v in review)} of "
        f"{len(review)} of the review's) in {time.monotonic() - start:.0f} s"
    )
    if survivors:
        print(f"survived: {', '.join(survivors)}")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
