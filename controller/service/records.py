"""A journaled hand as a record: JSON (every event with the referee's verdict, the result) and a readable log
a floor manager can read when players dispute a hand."""

from __future__ import annotations

import time
from typing import Any

from controller.errors import JournalError
from controller.service.events import Event, EventKind, describe_action
from controller.service.hand import HandRecord, HandState
from controller.service.journal import Journal
from engine.errors import MjtableError
from engine.tiles import WIND_LETTERS

WIND_NAMES = ("东 East", "南 South", "西 West", "北 North")


def hand_record(record: HandRecord, events: list[Event], result: dict[str, Any] | None) -> dict[str, Any]:
    """The hand replayed from its events: each event with the verdict it got, and the recorded result. An event the
    hand cannot take is named by its sequence number (``JournalError``)."""
    try:
        state = HandState.start(record)
    except MjtableError as error:
        raise JournalError(f"columns rules, options: {error}") from None
    replayed = []
    for seq, event in enumerate(events):
        try:
            verdict = state.apply(event)
        except MjtableError as error:
            raise JournalError(f"event {seq}, column data: {error}") from None
        replayed.append({**event.to_dict(), **({"verdict": verdict.to_dict()} if verdict is not None else {})})
    return {
        **{key: value for key, value in record.to_dict().items() if key not in ("id", "match_id")},
        "round_wind": WIND_LETTERS[record.round_wind],
        "dice": None if state.dice is None else list(state.dice),
        **({} if state.dice2 is None else {"dice2": list(state.dice2)}),
        "events": replayed,
        "result": result,
    }


def run_records(journal: Journal, run_id: int | None = None) -> list[dict[str, Any]]:
    """Every hand record of a run (the latest by default), for ``mjtable history``, once the chain up to the run's
    end holds. ``chained`` says whether the hand was chained when written or only when an older journal was
    migrated."""
    runs = journal.runs()
    if not runs:
        raise JournalError(f"{journal.path}: no run journaled yet")
    run = runs[-1] if run_id is None else next((r for r in runs if r.id == run_id), None)
    if run is None:
        raise JournalError(f"{journal.path}: no run {run_id}; runs {runs[0].id}-{runs[-1].id}")
    journal.verify(run.id)
    chain = journal.chained_from
    records = []
    for hand, result in journal.hands(run.id):
        events = journal.events(hand.id)
        try:
            record = hand_record(hand, events, result)
        except JournalError as error:
            where = f"run {run.id} hand {hand.number}" + ("" if str(error).startswith("event") else ",")
            raise JournalError(f"{journal.path}: {where} {error}; {journal.remedy}") from None
        migrated = chain["from"] == "migration" and hand.id <= chain["hands_before"]
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(chain.get("at", 0)))
        record["chained"] = f"on migration at {stamp}, not when written" if migrated else "when written"
        records.append(record)
    return records


def _describe(event: dict[str, Any]) -> str:
    kind = event["kind"]
    if kind == EventKind.TABLE:
        facts = " ".join(f"{key}={value}" for key, value in event.items() if key not in ("kind", "at", "step"))
        return f"table   {event['step']} {facts}".rstrip()
    if kind == EventKind.DICE:
        return f"dice    {event['dice'][0]}+{event['dice'][1]}"
    if kind == EventKind.FAULT:
        return f"FAULT   {event['code']}"
    if kind == EventKind.BUTTON and event.get("by") == "service":
        return f"service voided the hand: {event.get('reason')}"
    if kind == EventKind.BUTTON:
        return _ruled(f"button  seat {event['seat']} pressed {event['button']}", event.get("verdict"))
    if kind == EventKind.SIGHT:
        where = "" if event["seat"] < 0 else f" seat {event['seat']}"
        return _ruled(f"camera {where} {event['sight']} {event.get('tiles', '')}".rstrip(), event.get("verdict"))
    action = event["action"]
    what = describe_action(action)
    if "revealed" in action:
        what += f" showing {action['revealed']}"
    verdict = event["verdict"]
    answer = "ok" if verdict["ok"] else f"ILLEGAL: {verdict['reason']}"
    follow = "; ".join(verdict.get("events", ()))
    return f"{event['source']:<7} {what}: {answer}" + (f" ({follow})" if follow else "")


def _ruled(what: str, verdict: dict[str, Any] | None) -> str:
    """A press or a sight with what the witness made of it (people playing): the actions, or why none."""
    if verdict is None:
        return what
    if verdict.get("events"):
        return f"{what} → {'; '.join(verdict['events'])}"
    return f"{what}: ILLEGAL: {verdict['reason']}"


def hand_log(data: dict[str, Any]) -> str:
    """The readable log of a ``hand_record``: one line per event, then the result with every fan."""
    lines = [
        f"hand {data['number']} · {data['rules']} · seed {data['seed']} · dealer seat {data['dealer']} · "
        f"round wind {WIND_NAMES['ESWN'.index(data['round_wind'])]} · dealer's hand {data['consecutive_dealer']}"
    ]
    if data.get("scores") is not None:
        points = ", ".join(f"seat {seat} {score}" for seat, score in enumerate(data["scores"]))
        lines.append(f"  {data['honba']}本場 · on the table {data['pot']} · points {points}")
    if data.get("chained", "when written") != "when written":
        lines.append(f"  (journal chained {data['chained']})")
    for event in data["events"]:
        stamp = time.strftime("%H:%M:%S", time.localtime(event["at"])) + f".{int(event['at'] % 1 * 1000):03d}"
        lines.append(f"  {stamp} {_describe(event)}")
    result = data["result"]
    if result is None:
        lines.append("  (in play)")
        return "\n".join(lines)
    if result["drawn"]:
        lines.append("  result: drawn game 荒庄")
    for win in result["wins"]:
        score = win["score"]
        lines.append(f"  result: seat {win['seat']} hu 和 {win['hand']} — {score.get('total')} total")
        for fan in score.get("fans", ()):
            times = f" ×{fan['count']}" if fan.get("count", 1) > 1 else ""
            lines.append(f"    {fan['name_zh']} {fan['name_en']}: {fan['points']}{times}")
    payments = ", ".join(f"seat {seat} {amount:+}" for seat, amount in result["payments"].items())
    lines.append(f"  payments: {payments}")
    if (facts := table_facts(result)) is not None:
        lines.append(f"  {facts}")
    return "\n".join(lines)


def table_facts(result: dict[str, Any]) -> str | None:
    """What a hand of a match that keeps points leaves on the board (``controller.service.outcome``): the round and
    本場, the ready declarations, the bonus indicators, the points after it and the sticks on the table."""
    if "round" not in result:
        return None
    parts = [f"{result['round']} {result['honba']}本場"]
    if result.get("declared_ready"):
        parts.append("立直 riichi seat " + ", ".join(map(str, result["declared_ready"])))
    if result.get("bonus_indicators"):
        parts.append(f"dora indicators {result['bonus_indicators']}")
    if result.get("abortive"):
        parts.append(f"abortive draw {result['abortive']}")
    parts.append(f"points {result['scores']}, on the table {result['on_table']}")
    if "final_standings" in result:
        places = ", ".join(f"seat {place['player']} {place['result']:+}" for place in result["final_standings"])
        parts.append(f"final: {places}")
    return " · ".join(parts)


def describe_result(result: dict[str, Any]) -> str:
    """One terminal line for a hand's result (``mjtable run`` without ``--json``)."""
    dice = " then ".join("+".join(map(str, result[key])) for key in ("dice", "dice2") if key in result)
    head = (
        f"hand {result['hand']} ({result['round_wind']} round, dealer seat {result['dealer']}, "
        f"dice {dice}, {result['actions']} actions):"
    )
    if result["drawn"]:
        outcome = "drawn game 荒庄"
    else:
        parts = []
        for win in result["wins"]:
            fans = ", ".join(
                f"{fan['name_zh']} {fan['name_en']} {fan['points']}" + (f"×{fan['count']}" if fan["count"] > 1 else "")
                for fan in win["score"]["fans"]
            )
            total = win["score"].get("total")  # 十万 judges the win and counts nothing
            parts.append(f"seat {win['seat']} hu 和 {win['hand']}" + ("" if total is None else f", {total} ({fans})"))
        outcome = "; ".join(parts)
    facts = table_facts(result)
    return f"{head} {outcome}; " + (facts if facts is not None else f"scores {result['scores']}")
