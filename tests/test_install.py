"""The installed package is self-contained: the wheel, built from the checkout's files alone and installed in a fresh
venv outside it, plays a hand with people at the simulated table (the camera renders the shipped tile artwork) and
with the simulated camera watching the bots, with no ``shared/`` anywhere near it.

The fresh venv takes mjtable's dependencies from the test's own environment through a path file: a folder listed in a
``.pth`` file is put on ``sys.path`` without its own ``.pth`` files being run, so the development install's editable
finder (which would import the checkout) never loads, and nothing is downloaded."""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.paths import ANCHOR, REPO

ORACLE = ANCHOR / "mcr-oracle-pymahjonggb-1.4.0.jsonl"

pytestmark = pytest.mark.slow  # about 30 s: a wheel built, a venv made, two hands played


def _checkout_files() -> list[str]:
    """What a clone of the checkout holds (tracked files, and new ones not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    )
    return [name for name in listed.stdout.decode().split("\0") if name and (REPO / name).is_file()]


def _clone(target: Path) -> Path:
    for name in _checkout_files():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes((REPO / name).read_bytes())
    return target


CORES = ("_native", "_mcr_native", "_riichi_native")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with the wheel of the checkout installed; returns its ``bin`` folder."""
    return _install(tmp_path_factory.mktemp("install"), compiler=True)


@pytest.fixture(scope="module")
def installed_without_compiler(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same, the wheel built where no C compiler works (``CC=false``): the cores are left out, not the install."""
    return _install(tmp_path_factory.mktemp("install-pure"), compiler=False)


def _install(root: Path, compiler: bool) -> Path:
    source = _clone(root / "src")
    dist = root / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    environment = None if compiler else {**os.environ, "CC": "false", "LDSHARED": "false"}
    wheel_of = [*pip, "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", dist, source]
    subprocess.run(wheel_of, check=True, env=environment, capture_output=not compiler)
    (wheel,) = dist.glob("mjtable-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "vision/faces/uni/rendered/WD.png" in names and "vision/faces/uni/SOURCE.txt" in names
    assert "vision/faces/riichi/Export/Regular/Man5-Dora.png" in names and "vision/faces/riichi/LICENSE.md" in names
    built = sorted(
        name.split("/")[1].split(".")[0] for name in names if name.startswith("engine/_") and name.endswith(".so")
    )
    assert built == (sorted(CORES) if compiler else []), built
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    subprocess.run([*pip, "--python", python, "install", "-q", "--no-deps", "--no-index", wheel], check=True)
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "mjtable-test-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return venv / "bin"


def _environment() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if key not in ("MJTABLE_SHARED", "PYTHONPATH")}


def test_the_installed_package_is_the_wheels_and_finds_its_artwork_inside_it(installed: Path, tmp_path: Path) -> None:
    probe = (
        "import json, vision, vision.artwork as a; "
        "print(json.dumps([vision.__file__, str(a.default_artwork_dir()), len(a.load_faces('uni'))]))"
    )
    found = subprocess.run(
        [installed / "python", "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=_environment()
    )
    assert found.returncode == 0, found.stderr
    module, artwork, kinds = json.loads(found.stdout)
    venv = installed.parent
    assert Path(module).is_relative_to(venv) and Path(artwork).is_relative_to(venv)
    assert kinds == 42
    assert not any((parent / "shared").exists() for parent in Path(module).parents)


@pytest.mark.parametrize("how", [["--players", "people"], ["--camera", "sim"]], ids=["people", "camera"])
def test_the_installed_table_plays_a_hand(installed: Path, tmp_path: Path, how: list[str]) -> None:
    command = [installed / "mjtable", "run", *how, "--hands", "1", "--seed", "3", "--speed", "1000"]
    command += ["--http", "off", "--json", "--state", tmp_path / "state"]
    played = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, env=_environment(), timeout=300)
    assert played.returncode == 0, played.stderr[-3000:]
    assert "Traceback" not in played.stderr and "Error" not in played.stderr, played.stderr[-3000:]
    summary = json.loads(played.stdout.splitlines()[-1])
    assert summary["hands"] == 1 and sum(summary["scores"]) == 0, summary


def test_without_a_compiler_the_package_answers_as_with_one(
    installed: Path, installed_without_compiler: Path, tmp_path: Path
) -> None:
    """The same answers from the pure install (no core) as from the compiled one, on the oracle's first 200 MCR
    hands scored and their waits."""
    lines = [json.loads(line)["notation"] for line in ORACLE.read_text().splitlines()[:200]]
    probe = "from engine import native; print([native.NATIVE is None, native.MCR_NATIVE is None])"
    answers = {}
    for name, bin_folder in (("compiled", installed), ("pure", installed_without_compiler)):
        cores = subprocess.run(
            [bin_folder / "python", "-c", probe], capture_output=True, text=True, env=_environment(), cwd=tmp_path
        )
        assert cores.stdout.strip() == str([name == "pure"] * 2), cores.stderr
        for command in ("score", "waits"):
            text = "\n".join(lines if command == "score" else [_waiting(line) for line in lines]) + "\n"
            run = subprocess.run(
                [bin_folder / "mjtable", command, "--rules", "mcr"],
                input=text,
                capture_output=True,
                text=True,
                env=_environment(),
                cwd=tmp_path,
                check=True,
            )
            answers[name, command] = run.stdout
    assert answers["compiled", "score"] == answers["pure", "score"] and answers["pure", "score"].count("\n") == 200
    assert answers["compiled", "waits"] == answers["pure", "waits"] and '"waits"' in answers["pure", "waits"]


def _waiting(line: str) -> str:
    """An oracle hand without its situation and winning tile (the last tile: an honor letter or a digit and suit)."""
    tiles = line.split("|")[0]
    return tiles[:-1] if tiles[-1] in "ESWNPFC" else tiles[:-2]
