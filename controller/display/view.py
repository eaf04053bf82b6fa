"""What the dealer-light display shows, kept up to date by the service and read by the web page.

Only public facts leave the service: dealer, winds, the wall count, each seat's discards, melds and flowers, the
last event and its verdict, the numbered log of the latest verdicts (ok, illegal with the reason, a false hu, a
hand's result), a win with its fans, running scores, a fault with the technician's hint, and (people playing) the
camera's readings open for their seats to confirm or correct (``unsure``: each with its ranked choices). Concealed
hands never do (the simulated referee knows them; a display on the LAN must not); a winner's hand is public once laid
down. So neither does furiten, a fact of a concealed hand: no page shows a seat its own hand.

A match that keeps points (riichi) adds its ``board``: each seat's points as a parlor's board shows them (less a 立直
stick put on the table), the hand's number in its round (東2局) and the stake of a stick; ``table`` holds the 本場, the
sticks on the table, the seats in 立直 and the dora indicators face up; ``last_change`` is each seat's points won or
lost in the last hand, and a river's red five is written ``0m`` and its 立直 discard is its ``sideways`` index.
``ranks`` (10 for 十万) tells the page that ``0m`` is a ten there.

A version number and a condition let the page's event stream wait for the next change instead of polling.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from controller.display.hints import hint
from controller.display.tablestate import history_entry, points_board, result_view, seat_view, wall_break
from controller.service.events import Event, EventKind
from controller.service.hand import HandRecord, HandState
from controller.service.outcome import table_facts
from engine.actions import Verdict
from engine.referee import Referee
from engine.tiles import WIND_LETTERS

KEPT = 30
"""Verdicts the state keeps (the page shows the latest few)."""
ROUND_NUMBER = re.compile(r"(\d+)局")
"""The hand's number in its round in a result line's ``round`` (``東3局``)."""
HISTORY_KEPT = 200
"""Finished hands ``/api/history`` keeps: a long evening's match, a few kilobytes each."""


class TableView:
    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._state: dict[str, Any] = {
            "version": 0,
            "hand": None,
            "scores": [0, 0, 0, 0],
            "fault": None,
            "verdicts": [],
        }
        self._verdicts = 0
        self._closed = False
        self._history: list[dict[str, Any]] = []
        self._dealt: list[Any] | None = None
        """The points the current hand was dealt with, where the match keeps points (``/history`` starts there)."""
        self._first_dealers: dict[int, int] = {}
        """Each match's first dealer (by ``HandRecord.match_id``), for the hand's number in its round (東2局)."""
        self._match_id: int | None = None
        self._river: tuple[int, list[int], set[tuple[int, int]], dict[int, int]] = (-1, [0] * 4, set(), {})
        """The hand's rivers as the view saw them grow: (hand, each river's length, the (seat, index) of each red five
        discarded, each seat's ready declaration's discard index)."""

    def snapshot(self) -> dict[str, Any]:
        with self._changed:
            return dict(self._state)

    def wait_newer(self, version: int, timeout: float) -> dict[str, Any] | None:
        """The state once its version passes ``version``; ``None`` on timeout or when the view closes."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._state["version"] > version, timeout)
            return None if self._closed or self._state["version"] <= version else dict(self._state)

    def history(self) -> list[dict[str, Any]]:
        """The hands finished since the service started (``tablestate.history_entry``), oldest first; kept apart
        from the state so that the state pushed on every change stays small."""
        with self._changed:
            return list(self._history)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Wake every waiting stream so that the server can stop."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def _update(self, logged: dict[str, Any] | None = None, **changes: Any) -> None:
        """A new state; ``logged`` (a verdict) joins the numbered log of the last ``KEPT`` verdicts, so that a page
        that missed a state (two changes between its reads) still shows every verdict."""
        with self._changed:
            if logged is not None:
                self._verdicts += 1
                changes["verdicts"] = [*self._state["verdicts"][1 - KEPT :], {"n": self._verdicts, **logged}]
            self._state = {**self._state, **changes, "version": self._state["version"] + 1}
            self._changed.notify_all()

    # -- fed by the service -------------------------------------------------------------------------------

    def on_event(self, hand: HandState, event: Event, verdict: Verdict | None) -> None:
        record = hand.record
        changes: dict[str, Any] = {
            "hand": record.number,
            "rules": record.rules,
            "dealer": record.dealer,
            "round_wind": WIND_LETTERS[record.round_wind],
            "seat_winds": [WIND_LETTERS[(seat - record.dealer) % 4] for seat in range(4)],
            "consecutive_dealer": record.consecutive_dealer,
            "last_event": event.to_dict(),
            "verdict": None if verdict is None else verdict.to_dict(),
        }
        if event.kind is EventKind.FAULT:
            code = str(event.data["code"])
            changes["fault"] = {"code": code, "hint_en": hint(code), "hint_zh": hint(code, chinese=True)}
        else:  # the table moves again: the fault was repaired
            changes["fault"] = None
        if event.kind is EventKind.DICE:
            changes["win"] = None
        referee = hand.referee
        if hand.dice is not None:
            changes["dice"] = list(hand.dice) + list(hand.dice2 or ())
        if hand.second_thrower is not None:  # the wall is broken by two throws: the second is awaited
            changes["waiting"] = f"seat {hand.second_thrower}'s dice key (the second throw)"
        if referee is not None:
            changes["wall_remaining"] = referee.wall.live_remaining
            changes["turn"] = referee.turn
            changes["phase"] = referee.phase.value
            changes["waiting"] = None if hand.witness is None else hand.witness.waiting
            changes["unsure"] = [] if hand.witness is None else hand.witness.unsure
            code = referee.ruleset.tile_code
            red, sideways = self._watch_rivers(record.number, referee)
            changes["seats"] = [
                seat_view(seat, code, {at for s, at in red if s == i}, sideways.get(i))
                for i, seat in enumerate(referee.seats)
            ]
            changes["ranks"] = referee.ruleset.tile_set.ranks  # 十万's ten: its "0m" is drawn as /tiles/10m.png
            changes["wall_break"] = wall_break(referee)
            changes["table"] = table_facts(referee) | ({} if record.scores is None else {"honba": record.honba})
        if record.scores is not None:  # a match that keeps points (riichi): the points the hand was dealt with
            changes["scores"] = list(record.scores)
            self._dealt = list(record.scores)
            ready = () if referee is None else referee.ready
            changes["board"] = points_board(hand.ruleset, ready, record.scores, self._hand_in_round(record))
            if referee is None:  # before the dice: what the hand is dealt with, not the last hand's table
                changes["table"] = {"declared_ready": [], "on_table": record.pot, "honba": record.honba}
        answer = None if verdict is None else {"hand": record.number, "event": event.to_dict(), **verdict.to_dict()}
        self._update(answer, **changes)

    def _watch_rivers(self, number: int, referee: Referee) -> tuple[set[tuple[int, int]], dict[int, int]]:
        """Which river tiles are red fives (the marked copy: ``Referee.offer_marked`` as it was discarded) and which
        is each seat's ready declaration (立直, laid sideways): learnt as each discard comes, from the referee alone,
        so that bots and people (whose discards the camera reads) are followed alike. A service restarted in the
        middle of a hand knows it for the discards after the restart."""
        hand, lengths, red, sideways = self._river
        if hand != number:
            lengths, red, sideways = [0] * 4, set(), {}
        declaring = referee.declaring
        for seat, state in enumerate(referee.seats):
            length = len(state.discards)
            if length > lengths[seat] and referee.offer_marked and referee.offer_seat == seat:
                red.add((seat, length - 1))
            ready = seat in referee.ready or (declaring is not None and declaring.seat == seat)
            if length > lengths[seat] and seat not in sideways and ready:
                sideways[seat] = length - 1
            lengths[seat] = length
        red = {(seat, at) for seat, at in red if at < lengths[seat]}  # a claimed discard left the river
        self._river = (number, lengths, red, sideways)
        return red, {seat: at for seat, at in sideways.items() if at < lengths[seat]}

    def _hand_in_round(self, record: HandRecord) -> int | None:
        """The hand's number in its round (東2局: the round's second dealer). The service does not tell the view who
        dealt first; a result line's ``round`` does (``_learn_round``), and so does the match's first hand (East,
        no 本場, nothing on the table, everyone at the starting points). ``None`` until one of them was seen (a
        service restarted in the middle of a match, before its first result line)."""
        self._match_id = record.match_id
        first = self._first_dealers.get(record.match_id)
        fresh = record.scores is not None and len(set(record.scores)) == 1
        if first is None and record.round_wind == 0 and record.honba == 0 and not record.pot and fresh:
            first = self._first_dealers[record.match_id] = record.dealer
        return None if first is None else (record.dealer - first) % 4 + 1

    def _learn_round(self, line: dict[str, Any]) -> None:
        """A result line's ``round`` (``東3局``) and dealer give its match's first dealer."""
        found = ROUND_NUMBER.search(str(line.get("round", "")))
        if found and self._match_id is not None and isinstance(line.get("dealer"), int):
            self._first_dealers[self._match_id] = (line["dealer"] - int(found[1]) + 1) % 4

    def on_line(self, line: dict[str, Any]) -> None:
        """A hand's result line (its wins with every fan in Chinese and English) or the run's summary."""
        if "wins" in line:
            rules = self._state.get("rules")
            win = result_view(line, rules)
            self._learn_round(line)
            entry = history_entry(line, rules, self._dealt)
            with self._changed:
                self._history = [*self._history[1 - HISTORY_KEPT :], entry]
            logged = {"drawn": line["drawn"], "wins": line["wins"]}
            changes: dict[str, Any] = {"scores": line["scores"], "win": win, "last_change": win["payments"]}
            if self._dealt is not None:  # the board after the hand: its points, the sticks left, the end's standings
                board = self._state.get("board") or {}
                changes["board"] = {**board, "points": line["scores"], "final_standings": line.get("final_standings")}
            self._update({"hand": line["hand"], "result": logged}, **changes)
        elif line.get("journal") == "behind":  # the journal lost what the table lived through: said on the page
            event = {"kind": "journal"}
            problem = f"{line['reason']}; {line['done']}"
            self._update({"hand": line["hand"], "event": event, "ok": False, "reason": problem}, journal=problem)
        elif line.get("camera") == "unread":  # people playing: a tile the camera saw and could not read
            event = {"kind": "sight", "seat": line["seat"], "sight": line["sight"]}
            self._update({"hand": line["hand"], "event": event, "ok": False, "reason": line["hint"]})
