import io
import json
import socket

import pytest

from controller.cli import main
from controller.display.view import TableView
from controller.display.web import DisplayServer


def _doctor(config) -> tuple[int, list[dict]]:
    out = io.StringIO()
    code = main(["doctor", "--config", str(config)], stdout=out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def test_doctor_passes_on_the_simulated_table(tmp_path):
    config = tmp_path / "mjtable.toml"
    config.write_text(f'[service]\nstate_dir = "{tmp_path / "state"}"\n[http]\nlisten = "off"\n')
    code, answers = _doctor(config)
    assert code == 0, answers
    checks = ["configuration", "journal", "display", "table", "camera", "broker"]
    assert [answer["check"] for answer in answers] == checks
    assert "simulated table" in answers[3]["detail"] and "MockFactory" in answers[3]["detail"]
    assert answers[4] == {"check": "camera", "ok": True, "detail": "off (no [camera] source)"}
    assert answers[5] == {"check": "broker", "ok": True, "detail": "off (no [mqtt] url)"}  # no fleet: nothing to check


def test_doctor_names_what_is_wrong(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        config = tmp_path / "mjtable.toml"
        config.write_text(
            f'[service]\nstate_dir = "{tmp_path}"\n[http]\nlisten = "127.0.0.1:{port}"\n'
            f'[bridge.link]\nport = "{tmp_path / "no-such-tty"}"\n'
        )
        code, answers = _doctor(config)
    assert code == 1
    failed = {answer["check"]: answer["detail"] for answer in answers if not answer["ok"]}
    assert set(failed) == {"display", "table"}
    assert "no-such-tty" in failed["table"] and f"127.0.0.1:{port}" in failed["display"]
    config.write_text("[service]\nrules = 'nope'\n")
    code, answers = _doctor(config)
    assert code == 1 and len(answers) == 1 and "nope" in answers[0]["detail"]


def test_every_ruleset_is_played_by_bots_and_by_people(tmp_path):
    """The table service plays every ruleset with bots and with people at a camera table: riichi with its red fives
    (the camera tells a red five from a plain one), Harbin and basic's two-throw break with the second throw taken
    from the table (the seat the dealer's throw points to presses its dice key)."""
    config = tmp_path / "mjtable.toml"
    options = {"riichi": "{ red_fives = true }", "harbin": "{}", "basic": '{ break_method = "two_throws" }'}
    for rules, chosen in options.items():
        service = f'[service]\nrules = "{rules}"\noptions = {chosen}\nstate_dir = "{tmp_path}"\n'
        for players in ("bots", "people"):
            config.write_text(f'{service}players = "{players}"\n[http]\nlisten = "off"\n')
            code, answers = _doctor(config)
            assert code == 0, (rules, players, answers)


def _port_after_a_run() -> int:
    """The display's port after a run: its server answered a page and closed first (HTTP/1.0), so the port's only
    socket waits in TIME-WAIT for a minute."""
    server = DisplayServer("127.0.0.1:0", TableView(), "", {})
    try:
        port = int(server.url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(b"GET /api/state HTTP/1.0\r\n\r\n")
            while client.recv(65536):  # to the end: the server closes first
                pass
    finally:
        server.close()
    return port


def test_the_display_check_passes_right_after_a_run_while_its_sockets_wait_in_time_wait(tmp_path):
    """Issue 16: the check bound without SO_REUSEADDR and failed for a minute after every run."""
    port = _port_after_a_run()
    with socket.socket() as plain, pytest.raises(OSError, match="in use"):
        plain.bind(("127.0.0.1", port))  # what the check did: refused while the server would bind
    config = tmp_path / "mjtable.toml"
    config.write_text(f'[service]\nstate_dir = "{tmp_path}"\n[http]\nlisten = "127.0.0.1:{port}"\n')
    code, answers = _doctor(config)
    display = next(answer for answer in answers if answer["check"] == "display")
    assert display == {"check": "display", "ok": True, "detail": f"127.0.0.1:{port} free, read-only"}
    assert code == 0, answers
