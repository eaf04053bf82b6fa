"""What riichi asks of the shared referee (``engine.referee``), and answers it, beside the scorer.

The referee plays every ruleset's hands; riichi's own mechanisms are its general ones, set here:

* 立直: a ready declaration (``RIICHI``): a closed ready hand, 1,000 points and at least four live tiles; the stick
  goes on the table once the declaring discard is not won on; from then on the hand is locked (the drawn tile is
  discarded, no call, a kan only of the drawn tile and only when it leaves the waits as they were);
* 振聴 (``FURITEN``): a wait among one's own discards (those called away included), a winning tile let pass since
  one's last draw (a tile completing the shape counts, yaku or not), and after riichi such a pass for the rest of the
  hand, all forbid a discard win; a self-draw is always allowed;
* the dead wall (``Ruleset.reserved_tiles`` 14): kan replacements from its end (each shortens the live wall by
  one, as the dead wall is topped up), dora indicators on the tops of stacks 3-7 counted from the end
  (``DORA``: a concealed kan's at once, an open or added kan's after its maker's discard, as on Tenhou), ura dora
  under them, read for a winner in riichi; at most four kans;
* red fives: the tile set's marked copies (``TileSet.marked``), counted in the winning hand;
* abortive draws, each an option: 四風連打, 四家立直, 四開槓 (four kans by more than one player, once the next
  discard is not won on), 三家和 (under ``multiple_ron`` = ``double``) through ``abortive_draw``, 九種九牌 through
  the player's ``ActionKind.ABORT`` on his first, uninterrupted draw;
* 流し満貫 at an exhaustive draw (``nagashi``), tenpai payments from the referee's ready seats;
* 責任払い (``liable_seat``): the seat that fed the last dragon or wind pung or kan of a winner's 大三元 or 大四喜 is
  named in the win's situation (``pao``), so the scorer makes it pay as Tenhou does.

Rule choices beside those of the scorer (the common rules; rules-A §13 covers none of them): ippatsu ends with the
declarer's next discard or any call or kan; no call on the last discard and no kan on an empty live wall (the
referee's general rules); a robbed kan is an added kan (no robbing of a concealed kan); after a chi or pon the
called tile is not discarded at once (喰い替え, ``kuikae``); 嶺上開花 on the last live tile is no 海底摸月.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.notation import MeldKind
from engine.rulesets.base import BonusIndicators, MissedWins, ReadyRule
from engine.tiles import DRAGONS, ORPHANS, WINDS, is_orphan

if TYPE_CHECKING:
    from engine.referee import Referee

RIICHI_STICK = 1000
RIICHI = ReadyRule(stake=RIICHI_STICK, min_live_tiles=4, closed_only=True, locks_hand=True)
FURITEN = MissedWins("振聴", any_tile=True, on_shape=True, for_hand_when_ready=True, own_discards=True)
DORA = BonusIndicators(first_stack=3)
MAX_KANS = 4
PAO_FACES = (DRAGONS, WINDS)
"""大三元 and 大四喜: the sets a seat that fed the last of them is liable for (責任払い)."""
NINE_KINDS = 9
"""九種九牌: nine different terminals and honours among the fourteen tiles of the first draw."""


def win_facts(referee: Referee, seat: int, red_fives: bool) -> dict[str, Any]:
    """The riichi situation keys of a win declared at the table (``engine.rulesets.riichi.situation``)."""
    ready = referee.ready.get(seat)
    declared = ready is not None
    liable = liable_seat(referee, seat)
    return {
        "riichi": declared and not ready.first_turn,  # type: ignore[union-attr]
        "double_riichi": declared and ready.first_turn,  # type: ignore[union-attr]
        "ippatsu": referee.unbroken_since_ready(seat),
        "dora_indicators": _faces(referee, referee.bonus_indicators()),
        "ura_dora_indicators": _faces(referee, referee.bonus_indicators(under=True)) if declared else "",
        "honba": referee.honba,
        "riichi_sticks": referee.on_table // RIICHI_STICK,
        "red_fives": referee.marked_in_win(seat, referee.offer_seat) if red_fives else 0,
    } | ({} if liable is None else {"pao": liable})


def liable_seat(referee: Referee, seat: int) -> int | None:
    """責任払い (option ``pao``): the seat whose discard the winner claimed for the last of his three dragon or four
    wind pungs or kans (四槓子's fourth kan under ``pao_suukantsu``), all of them declared; ``None`` when none is."""
    options = referee.ruleset.options
    if not options["pao"]:
        return None
    melds = referee.seats[seat].melds
    sets = [[meld for meld in melds if meld.kind is not MeldKind.CHOW and meld.tile in faces] for faces in PAO_FACES]
    if options["pao_suukantsu"]:  # an added kan is no claim: its pung's feeder is not liable for the fourth kan
        sets.append([meld for meld in melds if meld.kind is MeldKind.KONG and not meld.is_added_kong])
    for made, faces in zip(sets, (*PAO_FACES, range(MAX_KANS)), strict=False):
        if len(made) == len(faces) and made[-1].supplier is not None:
            return (seat - made[-1].supplier) % len(referee.seats)
    return None


def _faces(referee: Referee, tiles: list[int | None]) -> str:
    """The indicators the referee sees (a table that sees only backs knows none of them yet)."""
    return referee.ruleset.format_tiles(tile for tile in tiles if tile is not None)


def kuikae(referee: Referee, tile: int) -> str | None:
    """喰い替え: the tile just claimed with a chi or pon is not discarded in the same turn."""
    if referee.claimed == tile:
        return f"喰い替え: the {referee.ruleset.tile_code(tile)} just claimed is not discarded in the same turn"
    return None


def abortive_draw(referee: Referee, winners: tuple[int, ...], options: Mapping[str, Any]) -> str | None:
    """三家和 on a discard three players win on; else, once a discard is not won on, 四家立直, 四開槓 and 四風連打,
    each where its option is on."""
    if winners:
        return "sanchahou" if options["multiple_ron"] == "double" and len(winners) > 2 else None
    if options["suucha_riichi"] and len(referee.ready) == len(referee.seats):
        return "suucha_riichi"
    kans = referee.kongs
    if options["suukaikan"] and len(kans) == MAX_KANS and len({kan["seat"] for kan in kans}) > 1:
        return "suukaikan"
    firsts = [seat.played for seat in referee.seats]
    if options["suufon_renda"] and referee.calls == 0 and all(len(played) == 1 for played in firsts):
        faces = {played[0] for played in firsts}
        if len(faces) == 1 and faces <= set(WINDS):
            return "suufon_renda"
    return None


def nine_kinds(referee: Referee, seat: int, tiles: list[int], options: Mapping[str, Any]) -> str | None:
    """九種九牌: on the seat's first draw, nobody having called, nine kinds of terminals and honours held."""
    first_draw = referee.calls == 0 and not referee.seats[seat].played and referee.may_win_by_draw
    if options["kyuushu_kyuuhai"] and first_draw and len(set(tiles) & set(ORPHANS)) >= NINE_KINDS:
        return "kyuushu_kyuuhai"
    return None


def nagashi(referee: Referee) -> list[int]:
    """流し満貫: the seats whose discards are all terminals and honours, none claimed away."""
    return [
        index
        for index, seat in enumerate(referee.seats)
        if seat.played and len(seat.discards) == len(seat.played) and all(map(is_orphan, seat.played))
    ]
