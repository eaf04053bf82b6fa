"""The firmware's Cortex-M build in QEMU: start-up errors, the sizes, the suite, the soak and the host-silence watchdog.

Everything that runs QEMU is slow (a build, a boot, a whole suite); the start-up errors are not.
"""

import re
import subprocess

import pytest

from hw_tests import qemu
from hw_tests.cli import main
from hw_tests.errors import HarnessError
from hw_tests.firmware import FIRMWARE_DIR, build
from hw_tests.qemu import QemuBoard
from hw_tests.soak import soak
from hw_tests.suite import CHECKS

FLASH_BUDGET = 32 * 1024
RAM_BUDGET = 8 * 1024


def test_a_missing_elf_is_one_error_line(tmp_path):
    with pytest.raises(HarnessError, match=r"^the QEMU firmware .*nowhere.elf is missing: build it with make"):
        QemuBoard(tmp_path / "nowhere.elf").start()


def test_no_qemu_is_one_error_line(tmp_path, monkeypatch):
    elf = tmp_path / "fw.elf"
    elf.write_bytes(b"\x7fELF")
    monkeypatch.setattr(qemu.shutil, "which", lambda name: None)
    with pytest.raises(HarnessError, match=r"^qemu-system-arm not found: install Debian's qemu-system-arm$"):
        QemuBoard(elf).start()


def test_qemu_refusing_the_image_is_one_error_line(tmp_path):
    elf = tmp_path / "fw.elf"
    elf.write_bytes(bytes(2 << 20))  # no ELF, and too big for the flash as a raw image
    with pytest.raises(
        HarnessError, match=r"^qemu-system-arm exited with status 1: .*Could not load kernel .*fw.elf'$"
    ):
        QemuBoard(elf).start()


@pytest.mark.slow
@pytest.mark.parametrize("board", ["qemu", "stm32f405"])
def test_the_cortex_m_builds_fit_32k_of_flash_and_8k_of_ram(board):
    build(board)
    elf = FIRMWARE_DIR / "build" / board / "mjtable-fw.elf"
    out = subprocess.run(["arm-none-eabi-size", "-A", str(elf)], capture_output=True, text=True, check=True).stdout
    sections = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\.\S+)\s+(\d+)\s+\d+$", out, re.M)}
    flash = sum(sections.get(name, 0) for name in (".isr_vector", ".text", ".ARM.exidx", ".data"))
    ram = sum(sections.get(name, 0) for name in (".data", ".bss", ".stack"))
    assert sections[".text"] > 4096 and sections[".stack"] >= 1024  # the core is in, and a stack is reserved
    assert flash <= FLASH_BUDGET, f"{board}: {flash} bytes of flash"
    assert ram <= RAM_BUDGET, f"{board}: {ram} bytes of RAM"


@pytest.mark.slow
def test_the_suite_passes_on_the_qemu_build(capsys):
    assert main(["--firmware", "qemu", "--speed", "20", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "board QEMU-F405" in out
    assert "JAM/STACKER/side1" in out and "TRAVEL_TIMEOUT/LIFT/side0" in out and "HOST_SILENT" in out
    for code in ("TRAVEL_TIMEOUT/HATCH", "OVERTRAVEL/HATCH", "RUN_TIMEOUT/DISC", "DRIVER_FAULT/HATCH",
                 "OVERCURRENT/DISC"):  # fmt: skip
        assert code in out, code
    assert "reset by its watchdog" in out and "outputs safe at the fault" in out  # its emulated watchdog, SYSRESETREQ
    assert out.rstrip().endswith(f"{len(CHECKS)} passed, 0 failed, 0 skipped")


@pytest.mark.slow
def test_soak_on_the_qemu_build_loses_and_repeats_nothing():
    result = soak(1500, 0.05, 0.10, 11, firmware="qemu")
    assert result["mcu"] == "firmware qemu"
    assert result["lost"] == 0 and result["duplicates"] == 0 and result["in_order"], result
    assert result["retransmits"] > 500  # the noise did reach the line: about 1.8 resends per command
