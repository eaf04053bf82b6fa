"""The turn order of one riichi hand: draw, win or kan or discard, the others' ron and calls, until the hand ends.

Claims on a discard: ron first (several under the option ``multiple_ron``: ``head_bump`` keeps the first after
the discarder, ``double`` allows two and makes three an abortive draw 三家和, ``all`` keeps every one), then a pon
or kan by anyone, then a chi by the next player. A player who lets a winning tile pass (or cannot win on it: no
yaku, furiten) becomes furiten (``furiten.FuritenState``).
"""

from __future__ import annotations

from engine.notation import Meld, MeldKind
from engine.rulesets.base import Score
from engine.rulesets.riichi.bots import RiichiBot
from engine.rulesets.riichi.furiten import discard_furiten, waiting_tiles
from engine.rulesets.riichi.table import Abort, HandRecord, Player, RiichiTable

_SUPPLIER = {3: 1, 2: 2, 1: 3}
"""(discarder - caller) % 4 → the notation's supplier: 1 上家 (left), 2 对家, 3 下家."""


def play_hand(table: RiichiTable, bots: list[RiichiBot]) -> HandRecord:
    try:
        return _play(table, bots)
    except Abort as abort:
        return table.abortive_draw(abort.name)


def _play(table: RiichiTable, bots: list[RiichiBot]) -> HandRecord:
    seat, source, forbidden = table.dealer, "wall", None
    while True:
        player = table.players[seat]
        drawn = None
        if source == "wall":
            if table.wall.exhausted:
                return table.exhaustive_draw()
            drawn = table.draw()
        elif source == "rinshan":
            drawn = table.draw_replacement()
        if drawn is not None:
            player.concealed.append(drawn)
            ended = _after_draw(table, bots, player, drawn, rinshan=source == "rinshan")
            if isinstance(ended, HandRecord):
                return ended
            drawn = ended
        table.actions += 1
        tile, riichi = bots[seat].discard(table, player, drawn if drawn is not None else -1, forbidden)
        ended_or_next = _discard(table, bots, player, tile, riichi)
        if isinstance(ended_or_next, HandRecord):
            return ended_or_next
        seat, source, forbidden = ended_or_next


def _after_draw(
    table: RiichiTable, bots: list[RiichiBot], player: Player, drawn: int, rinshan: bool
) -> HandRecord | int:
    """Self-draw win, nine kinds, kans (each followed by a replacement draw); the tile last drawn otherwise."""
    while True:
        table.actions += 1
        score = table.win_score(player.seat, drawn, None, rinshan=rinshan)
        if score is not None and score.hu:
            return table.settle_wins([(player.seat, score)], None)
        first_draw = not table.calls_made and not player.discards
        if first_draw and table.options["kyuushu_kyuuhai"] and bots[player.seat].nine_kinds(player):
            raise Abort("kyuushu_kyuuhai")
        kan = bots[player.seat].turn_kan(table, player)
        if kan is None:
            return drawn
        kind, how = kan
        if how == "added":
            added = max(tile for tile in player.concealed if tile // 4 == kind)
            robbed = _rons(table, bots, player.seat, added, robbing=True)
            if robbed:
                return table.settle_wins(robbed, player.seat)
            player.concealed.remove(added)
            player.meld_ids.append(added)
            index = next(i for i, meld in enumerate(player.melds) if meld.kind is MeldKind.PUNG and meld.tile == kind)
            offer = player.melds[index].offer or 1
            player.melds[index] = Meld(MeldKind.KONG, kind, offer + 4)
        else:
            player.meld_ids += player.take(kind, 4)
            player.melds.append(Meld(MeldKind.KONG, kind, None))
        _kan_made(table, player, concealed=how == "concealed")
        drawn = table.draw_replacement()
        player.concealed.append(drawn)
        rinshan = True


def _kan_made(table: RiichiTable, player: Player, concealed: bool) -> None:
    table.turn_kan_indicator(concealed)
    player.kans += 1
    _call_made(table)


def _call_made(table: RiichiTable) -> None:
    """Any call or kan ends every ippatsu and the first go-around."""
    table.calls_made = True
    for other in table.players:
        other.ippatsu = False


def _discard(
    table: RiichiTable, bots: list[RiichiBot], player: Player, tile: int, riichi: bool
) -> HandRecord | tuple[int, str, int | None]:
    """The discard and everything answering it; the next (seat, source, forbidden kind) if the hand goes on."""
    declaring_double = riichi and not player.discards and not table.calls_made
    player.concealed.remove(tile)
    player.last_discard = tile
    player.discards.append(tile // 4)
    player.furiten.discarded()
    if player.ippatsu:
        player.ippatsu = False  # the declarer's next discard ends ippatsu
    table.discard_made()
    rons = _rons(table, bots, player.seat, tile, robbing=False)
    if rons:
        return table.settle_wins(rons, player.seat)
    if riichi:
        player.riichi, player.double_riichi = not declaring_double, declaring_double
        table.declare_riichi(player)
    if table.options["suukaikan"] and table.kans_by_several():
        raise Abort("suukaikan")
    table.check_four_winds()
    if not table.wall.exhausted:
        called = _call(table, bots, player, tile // 4)
        if called is not None:
            return called
    return (player.seat + 1) % 4, "wall", None


def _rons(
    table: RiichiTable, bots: list[RiichiBot], discarder: int, tile: int, robbing: bool
) -> list[tuple[int, Score]]:
    wins: list[tuple[int, Score]] = []
    for step in (1, 2, 3):
        other = table.players[(discarder + step) % 4]
        score = table.win_score(other.seat, tile, discarder, robbing=robbing)
        if score is None:
            continue
        furiten = other.furiten.blocks_ron() or discard_furiten(waiting_tiles(other.counts()), other.discards)
        if score.hu and not furiten:
            wins.append((other.seat, score))
        else:
            other.furiten.passed_win(other.riichi or other.double_riichi)
    rule = table.options["multiple_ron"]
    if rule == "head_bump":
        return wins[:1]
    if rule == "double" and len(wins) > 2:
        raise Abort("sanchahou")
    return wins


def _call(
    table: RiichiTable, bots: list[RiichiBot], discarder: Player, kind: int
) -> tuple[int, str, int | None] | None:
    """A pon or kan (any player, nearest first), else a chi by the next player."""
    offers = [(discarder.seat + step) % 4 for step in (1, 2, 3)]
    answers = {seat: bots[seat].call(table, table.players[seat], kind, discarder.seat) for seat in offers}
    granted = [(seat, answer) for seat, answer in answers.items() if answer is not None and answer[0] != "chi"]
    chi = answers[offers[0]]
    if not granted and chi is not None:
        granted = [(offers[0], chi)]
    if not granted:
        return None
    chosen, (how, low) = granted[0]
    caller = table.players[chosen]
    discarder.discard_called = True
    supplier = _SUPPLIER[(discarder.seat - chosen) % 4]
    claimed = discarder.last_discard
    if how == "chi":
        used = [tile for t in (low, low + 1, low + 2) if t != kind for tile in caller.take(t)]
        caller.melds.append(Meld(MeldKind.CHOW, low, 1))
    else:
        used = caller.take(kind, 3 if how == "kan" else 2)
        caller.melds.append(Meld(MeldKind.KONG if how == "kan" else MeldKind.PUNG, kind, supplier))
    caller.meld_ids += [*used, claimed]
    if how == "kan":
        _kan_made(table, caller, concealed=False)
        return chosen, "rinshan", None
    _call_made(table)
    return chosen, "call", kind
