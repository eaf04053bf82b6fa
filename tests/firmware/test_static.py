"""The stm32f405 board runs only on the chip, so no test runs its safety paths; its linked image is checked instead:
the hard-fault handler makes the outputs safe before it waits for the watchdog, main sets the brown-out level, the
stepper timer's interrupt cuts every output when a driver asserts its fault pin and steps through the portable
stepper (its end switch and step limit, unit-tested). Each is a call edge in the disassembly (no link-time
optimisation: a call across files stays a call), so a mutant that drops one is caught here."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from hw_tests.firmware import FIRMWARE_DIR, build

CALLS = {
    "default_handler": ("hal_safe_outputs", "chip_halt"),
    "main": ("brownout_level",),
    "tim2_handler": ("hal_safe_outputs", "stepper_tick", "inputs_sample"),
    "stepper_run": ("stepper_start",),
}
FUNCTION = re.compile(r"^[0-9a-f]+ <(\w+)>:$")
CALL = re.compile(r"\t(?:bl|b|b\.w|bl\.w)\t[0-9a-f]+ <(\w+)>")


def calls(elf: str) -> dict[str, set[str]]:
    """Each function's direct calls and tail calls, from arm-none-eabi-objdump."""
    out = subprocess.run(["arm-none-eabi-objdump", "-d", "--no-show-raw-insn", elf], capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    edges: dict[str, set[str]] = {}
    current = ""
    for line in out.splitlines():
        if match := FUNCTION.match(line):
            current = match[1]
            edges.setdefault(current, set())
        elif (match := CALL.search(line)) and match[1] != current:
            edges[current].add(match[1])
    return edges


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("arm-none-eabi-objdump") is None, reason="needs Debian's binutils-arm-none-eabi")
def test_the_stm32f405_image_calls_its_safety_paths():
    build("stm32f405")
    edges = calls(str(FIRMWARE_DIR / "build/stm32f405/mjtable-fw.elf"))
    missing = [f"{caller} -> {callee}" for caller, callees in CALLS.items() for callee in callees
               if callee not in edges.get(caller, set())]  # fmt: skip
    assert not missing, f"the stm32f405 image lost its safety calls: {', '.join(missing)}"
