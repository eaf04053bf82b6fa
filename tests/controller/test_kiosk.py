"""The kiosk (issue 19): the display full screen on the Pi's screen. The unit parses (``systemd-analyze verify``
where there is one) and starts the kiosk module under cage, after the table service; the install step changes
nothing the second time; and the kiosk's own command line, with ``--headless`` added, loads the display of a
running ``mjtable run`` in Debian's chromium and takes a 1080p screenshot."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from controller.errors import ConfigError
from controller.ops.kiosk import KIOSK_FLAGS, build_parser, display_url, kiosk_command
from tests.paths import REPO

DEPLOY = REPO / "deploy"
UNIT = DEPLOY / "mjtable-kiosk.service"
SCREENSHOTS = REPO / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
# The test's own additions, as the display's browser test has them: no sandbox as root, no network of its own.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip


def _require_chromium() -> None:
    """CI installs Debian's chromium (``.ci/run``) and must run the headless test; elsewhere it is skipped."""
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium")
    pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")


def _unit() -> dict[str, dict[str, list[str]]]:
    """The unit's keys per section, each with every value it is given (systemd adds up repeated ``After=``)."""
    sections: dict[str, dict[str, list[str]]] = {}
    section: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if line.startswith("[") and line.endswith("]"):
            section = sections.setdefault(line[1:-1], {})
        elif line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            section.setdefault(key, []).append(value)
    return sections


def test_the_display_url_is_reached_on_loopback_for_a_wildcard_listen():
    assert display_url("127.0.0.1:8080") == "http://127.0.0.1:8080/"
    assert display_url("0.0.0.0:8080") == "http://127.0.0.1:8080/"
    assert display_url("[::]:9000") == "http://[::1]:9000/"
    assert display_url("table1.local:80") == "http://table1.local:80/"
    with pytest.raises(ConfigError, match=r'http\.listen: "off", so there is no display'):
        display_url("off")


def test_the_kiosk_command_is_chromium_full_screen_with_a_throwaway_profile(tmp_path):
    command = kiosk_command("http://127.0.0.1:8080/", tmp_path, extra=["--headless"])
    assert command[0] == "chromium" and command[-1] == "http://127.0.0.1:8080/"
    assert {"--kiosk", "--noerrdialogs", "--disable-infobars", "--incognito"} <= set(command)
    assert f"--user-data-dir={tmp_path}" in command and command[-2] == "--headless"
    assert list(KIOSK_FLAGS) == command[1 : 1 + len(KIOSK_FLAGS)]


def test_the_unit_runs_the_kiosk_module_under_cage_after_the_service_as_its_own_user():
    unit = _unit()
    after = " ".join(unit["Unit"]["After"]).split()
    assert "mjtable.service" in after and "mjtable.service" in " ".join(unit["Unit"]["Wants"]).split()
    service = {key: values[-1] for key, values in unit["Service"].items()}
    assert service["User"] not in ("mjtable", "root") and service["PAMName"] == "mjtable-kiosk"
    assert service["TTYPath"] == "/dev/tty1" and service["Restart"] == "always"
    pre = shlex.split(service["ExecStartPre"])
    start = shlex.split(service["ExecStart"])
    assert pre[0].startswith("+"), "the URL is read from the configuration as root, not by the browser's user"
    assert start[:3] == ["/usr/bin/cage", "-s", "--"]
    for command in (pre, start[3:]):
        assert command[0].lstrip("+") == "/opt/mjtable/.venv/bin/python" and command[1:3] == [
            "-m",
            "controller.ops.kiosk",
        ]
    url = build_parser().parse_args(pre[3:])
    show = build_parser().parse_args(start[6:])
    assert url.command == "url" and url.config == Path("/etc/mjtable/mjtable.toml")
    assert show.command == "show" and show.url_file == url.out
    assert str(url.out).startswith("/run/" + service["RuntimeDirectory"] + "/")


def test_systemd_analyze_verifies_the_unit(tmp_path):
    """``systemd-analyze verify`` checks every key and that the programs exist: the Pi's paths are pointed at this
    machine's Python (and at ``true`` where cage is not installed). It exits 0 on a bad key, so its words count."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is missing (the parser test above still reads the unit)")
    text = UNIT.read_text().replace("/opt/mjtable/.venv/bin/python", sys.executable)
    text = text.replace("/usr/bin/cage", shutil.which("cage") or shutil.which("true") or "/bin/true")
    copy = tmp_path / UNIT.name
    copy.write_text(text)
    answer = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert answer.returncode == 0 and answer.stderr.strip() == "", answer.stderr


def test_the_install_step_is_idempotent_in_a_temporary_root(tmp_path):
    install = [str(DEPLOY / "install-kiosk"), "--root", str(tmp_path)]
    first = subprocess.run(install, capture_output=True, text=True, check=True).stdout.splitlines()
    assert first == ["installed: /etc/systemd/system/mjtable-kiosk.service", "installed: /etc/pam.d/mjtable-kiosk"]
    installed = {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()}
    assert installed[tmp_path / "etc/systemd/system/mjtable-kiosk.service"] == UNIT.read_bytes()
    assert b"pam_systemd.so" in installed[tmp_path / "etc/pam.d/mjtable-kiosk"]
    again = subprocess.run(install, capture_output=True, text=True, check=True).stdout.splitlines()
    assert again == [line.replace("installed", "unchanged") for line in first]
    assert {path: path.read_bytes() for path in tmp_path.rglob("*") if path.is_file()} == installed
    (tmp_path / "etc/pam.d/mjtable-kiosk").write_text("edited\n")  # a file that drifted is put back
    third = subprocess.run(install, capture_output=True, text=True, check=True).stdout.splitlines()
    assert third == [first[0].replace("installed", "unchanged"), first[1]]
    assert (tmp_path / "etc/pam.d/mjtable-kiosk").read_bytes() == installed[tmp_path / "etc/pam.d/mjtable-kiosk"]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_kiosk_command_headless_shows_the_display_of_a_running_table(tmp_path):
    _require_chromium()
    port = _free_port()
    config = tmp_path / "mjtable.toml"
    config.write_text(
        f'[service]\nhands = 20\nseed = 1\nspeed = 20.0\nstate_dir = "{tmp_path / "state"}"\n'
        f'[http]\nlisten = "0.0.0.0:{port}"\n'
    )
    kiosk = [sys.executable, "-m", "controller.ops.kiosk"]
    url_file = tmp_path / "url"
    subprocess.run([*kiosk, "url", "--config", str(config), "--out", str(url_file)], check=True, timeout=30)
    assert url_file.read_text() == f"http://127.0.0.1:{port}/\n"
    service = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "run", "--config", str(config), "--json"],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    shot = tmp_path / "kiosk.png"
    try:
        # As the unit starts it (the module waits for the display, then becomes chromium), with --headless and a
        # screenshot added; as root chromium needs --no-sandbox, and the test keeps it off the network.
        extra = ["--headless", "--window-size=1920,1080", f"--screenshot={shot}", *CHROMIUM_ARGS]
        if os.geteuid() != 0:
            extra.remove("--no-sandbox")
        show = [*kiosk, "show", "--url-file", str(url_file), "--browser", CHROMIUM]
        show += ["--profile", str(tmp_path / "profile"), "--timeout", "60", "--", *extra]
        answer = subprocess.run(show, cwd=REPO, capture_output=True, text=True, timeout=90)
        assert answer.returncode == 0, answer.stderr[-2000:]
        assert service.poll() is None, "the table stopped while the kiosk looked at it"
    finally:
        service.terminate()
        service.wait(timeout=30)
    became = [line for line in answer.stderr.splitlines() if line.startswith("kiosk: ") and "--kiosk" in line]
    assert len(became) == 1  # the module logged the command line it became
    image = cv2.imread(str(shot))
    assert image is not None and image.shape[:2] == (1080, 1920)
    assert float(image.std()) > 10, "the screenshot is blank"
    SCREENSHOTS.mkdir(exist_ok=True)
    shutil.copy(shot, SCREENSHOTS / "kiosk-1080p.png")
