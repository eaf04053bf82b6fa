"""The display full screen on a screen attached to the Pi: Debian's chromium in kiosk mode (``deploy/mjtable-kiosk
.service`` runs it under the cage Wayland compositor).

``python -m controller.ops.kiosk url --config FILE --out PATH`` writes the display's URL from ``[http] listen``; the
unit runs it as root before the browser (``ExecStartPre=+``), so that the kiosk's user, which runs a browser, never
reads the configuration and its broker password. ``python -m controller.ops.kiosk show --url-file PATH`` waits for
the display to answer (a browser started on a service not yet listening would show an error page and stay there),
then becomes chromium with ``kiosk_command``; what follows ``--`` is added to chromium's command line, which is how
the test starts the same command headless.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

from controller.config import load_config, parse_listen
from controller.errors import ConfigError

log = logging.getLogger(__name__)

KIOSK_FLAGS = (
    "--kiosk",  # full screen, no address bar, no way out but the keyboard shortcut the kiosk user has no use for
    "--noerrdialogs",
    "--disable-infobars",
    "--incognito",  # nothing kept between starts: no "restore pages?" after a power cut
    "--no-first-run",
    "--disable-session-crashed-bubble",
    "--disable-features=Translate,TranslateUI",  # the Chinese page is meant to stay Chinese
    "--disable-pinch",
    "--overscroll-history-navigation=0",  # a swipe on a touch screen does not go back
    "--password-store=basic",  # no keyring prompt: there is no desktop session to unlock one
    "--check-for-update-interval=31536000",
    "--ozone-platform-hint=auto",  # Wayland under cage, X11 if started there
)


def display_url(listen: str) -> str:
    """The URL a browser on the Pi itself opens for ``[http] listen``: a wildcard address is reached on loopback."""
    if listen == "off":
        raise ConfigError('http.listen: "off", so there is no display for the kiosk to show; set HOST:PORT')
    host, port = parse_listen(listen)
    host = {"0.0.0.0": "127.0.0.1", "[::]": "[::1]", "::": "[::1]"}.get(host, host)
    return f"http://{host}:{port}/"


def kiosk_command(url: str, profile: Path, browser: str = "chromium", extra: Sequence[str] = ()) -> list[str]:
    """Chromium's command line: kiosk flags, a throwaway profile in ``profile`` (the unit's runtime directory, in
    RAM), ``extra`` flags, then the URL."""
    return [browser, *KIOSK_FLAGS, f"--user-data-dir={profile}", *extra, url]


def wait_for_display(
    url: str, timeout_s: float | None = None, sleep: Callable[[float], None] = time.sleep, every_s: float = 1.0
) -> None:
    """Until ``url`` answers (any HTTP answer); ``ConfigError`` after ``timeout_s`` (``None``: wait for good)."""
    started = time.monotonic()
    said = False
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError as error:
            if timeout_s is not None and time.monotonic() - started > timeout_s:
                raise ConfigError(f"the display at {url} did not answer within {timeout_s:g} s: {error}") from None
            if not said:
                log.warning("kiosk: waiting for the display at %s (%s)", url, error)
                said = True
        sleep(every_s)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m controller.ops.kiosk", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    url = commands.add_parser("url", help="write the display's URL from the configuration's [http] listen")
    url.add_argument("--config", type=Path, required=True)
    url.add_argument("--out", type=Path, help="the file to write (default: stdout)")
    show = commands.add_parser("show", help="wait for the display, then run chromium in kiosk mode on it")
    show.add_argument("--url-file", type=Path, required=True)
    show.add_argument("--browser", default="chromium")
    show.add_argument("--profile", type=Path, help="chromium's profile directory (default: $RUNTIME_DIRECTORY)")
    show.add_argument("--timeout", type=float, help="seconds to wait for the display (default: for good)")
    show.add_argument("extra", nargs="*", help="after --: more flags for chromium")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    try:
        if args.command == "url":
            text = display_url(load_config(args.config).http.listen)
            if args.out is None:
                print(text)
            else:
                args.out.write_text(text + "\n", encoding="utf-8")
            return 0
        target = args.url_file.read_text(encoding="utf-8").strip()
        profile = args.profile or Path(os.environ.get("RUNTIME_DIRECTORY", "/tmp/mjtable-kiosk")) / "chromium"
        wait_for_display(target, args.timeout)
    except (ConfigError, OSError) as error:
        print(f"kiosk: {error}", file=sys.stderr)
        return 2
    command = kiosk_command(target, profile, args.browser, args.extra)
    log.info("kiosk: %s", " ".join(command))
    sys.stdout.flush()
    os.execvp(command[0], command)  # chromium takes this process's place: cage watches it directly


if __name__ == "__main__":
    sys.exit(main())
