"""``mjtable history --format tenhou6|botzone``: the table's journaled games as other programs' records.

Each journaled hand is played again through the table's own referee (``controller.service.hand.HandState``, as
``mjtable history`` does), and what every applied action changed (tiles gained and lost, melds, the result) becomes
the neutral form of ``engine.records.game``; the writers of ``engine.records`` turn that into text. The formats seat
the first dealer East as seat 0, so seats are turned to put it there: the match's first dealer for tenhou.net/6,
each hand's dealer for Botzone (one hand per ``Match``). A hand the neutral form cannot follow is named by run,
hand and journal event."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from controller.service.events import EventKind
from controller.service.hand import HandRecord as TableHand
from controller.service.hand import HandState
from controller.service.journal import Journal
from controller.service.records import run_records
from engine.actions import Action, ActionKind
from engine.errors import MjtableError
from engine.notation import MeldKind
from engine.records.botzone_writer import write_botzone
from engine.records.errors import RecordError
from engine.records.game import (
    Call,
    CallKind,
    DrawKind,
    DrawnGame,
    Format,
    GameRecord,
    HandRecord,
    RecordTile,
    Riichi,
    Rules,
    Win,
    Yaku,
)
from engine.records.replay import BUGS
from engine.records.tenhou6_writer import write_tenhou6
from engine.records.tracker import Broken, HandTracker
from engine.referee import Referee, deal_for
from engine.rulesets.riichi.hooks import RIICHI_STICK

WRITERS: dict[str, tuple[str, Callable[[GameRecord], str]]] = {
    Format.TENHOU6.value: ("riichi", write_tenhou6),
    Format.BOTZONE.value: ("mcr", write_botzone),
}
"""Each format, the one ruleset it can hold, and its writer."""
_ABORTIVE = {
    "kyuushu_kyuuhai": DrawKind.NINE_TERMINALS,
    "suucha_riichi": DrawKind.FOUR_RIICHI,
    "sanchahou": DrawKind.TRIPLE_RON,
    "suukaikan": DrawKind.FOUR_KANS,
    "suufon_renda": DrawKind.FOUR_WINDS,
}
_CLAIMED = {MeldKind.CHOW: CallKind.CHI, MeldKind.PUNG: CallKind.PON, MeldKind.KONG: CallKind.DAIMINKAN}


def export_run(journal: Journal, run_id: int | None, fmt: str) -> list[str]:
    """The run's games in ``fmt``, one text per match, its finished hands in order; ``MjtableError`` names a
    ruleset the format cannot hold, or the hand that fails."""
    ruleset = WRITERS[fmt][0]
    run_records(journal, run_id)  # the chain verified and every event checked, with the errors history gives
    run = run_id if run_id is not None else journal.runs()[-1].id
    hands = journal.hands(run)
    other = sorted({hand.rules for hand, _ in hands} - {ruleset})
    if other:
        can = [name for name, (rules, _) in WRITERS.items() if rules in other]
        raise MjtableError(
            f"--format {fmt} holds {ruleset} games only; run {run} has {', '.join(other)} hands"
            + (f" (use --format {', '.join(can)})" if can else " (no export format holds them: use json or log)")
        )
    played = [hand for hand, result in hands if result is not None and not result.get("voided")]  # no game's hands
    matches = {hand.match_id: [other for other in played if other.match_id == hand.match_id] for hand in played}
    return [_game(journal, run, match, fmt) for match in matches.values()]


def _game(journal: Journal, run: int, hands: list[TableHand], fmt: str) -> str:
    """One match as one record: tenhou.net/6 seats its first dealer East, Botzone each hand's dealer."""
    records = []
    for hand in hands:
        shift = hand.dealer if fmt == Format.BOTZONE else hands[0].dealer
        try:
            records.append(_Walk(journal, hand, shift).record())
        except (Broken, RecordError, MjtableError) as error:
            raise MjtableError(f"{journal.path}: run {run} hand {hand.number}: {error}") from None
        except BUGS as error:  # the project's bug, not the journal's damage: named all the same, never a traceback
            what = f"{type(error).__name__}: {error}"
            where = f"{journal.path}: run {run} hand {hand.number}"
            raise MjtableError(f"{where}: not exported ({what}); please report it") from None
    options = hands[0].ruleset().options
    red = bool(options.get("red_fives"))
    length = {"hanchan": "south", "tonpuusen": "east"}.get(options.get("length", ""))
    rules = Rules(aka=(1, 1, 1) if red else (0, 0, 0), length=length, open_tanyao=options.get("open_tanyao"))
    game = GameRecord(Format(fmt), tuple(records), rules, ref=f"mjtable run {run} match {hands[0].match_id}")
    try:
        return WRITERS[fmt][1](game)
    except RecordError as error:
        raise MjtableError(f"{journal.path}: run {run}: {error}") from None


class _Walk:
    """One journaled hand played again; each applied action's changes fed to a ``HandTracker`` as moves."""

    def __init__(self, journal: Journal, hand: TableHand, shift: int) -> None:
        self.journal, self.hand, self.shift = journal, hand, shift
        self.tracker: HandTracker | None = None

    def seat(self, seat: int) -> int:
        return (seat - self.shift) % 4

    def record(self) -> HandRecord:
        state = HandState.start(self.hand)
        for number, event in enumerate(self.journal.events(self.hand.id)):
            referee = state.referee
            done = 0 if referee is None else len(referee.history)
            before = None if referee is None else _snapshot(referee)
            state.apply(event)
            if event.kind is EventKind.DICE and state.referee is not None:
                self._deal(state.referee)
            elif state.referee is not None and before is not None:
                try:
                    for action in state.referee.history[done:]:
                        self._action(state.referee, action, before)
                        before = _snapshot(state.referee)
                except Broken as error:
                    raise Broken(f"event {number}: {error}") from None
        referee = state.referee
        if referee is None or referee.result is None or self.tracker is None:
            raise Broken("the hand has no result in the journal (in play, or voided)")
        self._result(referee)
        hand = self.hand
        seats = [self.seat(seat) for seat in range(4)]
        order = sorted(range(4), key=seats.__getitem__)
        indicators, under = _indicators(referee, False), _indicators(referee, True)
        return HandRecord(
            index=hand.number,
            round_wind=hand.round_wind,
            number=self.seat(hand.dealer) + 1,
            honba=hand.honba,
            riichi_sticks=int(hand.pot) // RIICHI_STICK,
            dealer=self.seat(hand.dealer),
            deal=tuple(self.deal),
            moves=tuple(self.tracker.moves),
            scores=None if hand.scores is None else tuple(int(hand.scores[seat]) for seat in order),
            dora=tuple(indicators),
            ura=tuple(under),
            ref=f"{hand.seed}",
        )

    def _deal(self, referee: Referee) -> None:
        """The deal as the table made it (``deal_for`` from the hand's seed and dice): 13 tiles each, the dealer's
        fourteenth his first draw."""
        if referee.dice is None:
            raise Broken("the dice are not known")
        dice, dice2 = referee.dice[:2], None if referee.dice2 is None else referee.dice2[:2]
        dealt = deal_for(referee.ruleset, self.hand.seed, self.hand.dealer, dice, dice2)  # type: ignore[arg-type]
        if any(dealt.flowers):
            raise Broken(
                "flowers were dealt; the neutral record (and the Botzone text it reads) has no flowers: Botzone's "
                "matches are played without them (mcr option flowers = false)"
            )
        tiles = [_marked(list(hand), dealt.marked[seat]) for seat, hand in enumerate(dealt.hands)]
        dealer = self.hand.dealer
        first = tiles[dealer].pop()
        self.deal: list[tuple[RecordTile, ...]] = [()] * 4
        for seat in range(4):
            self.deal[self.seat(seat)] = tuple(tiles[seat])
        indicators = _indicators(referee, False)
        deal = [list(tiles) for tiles in self.deal]
        self.tracker = HandTracker(deal, self.seat(dealer), indicators[:1], implicit_riichi=True)
        self.tracker.draw(self.seat(dealer), first)

    def _action(self, referee: Referee, action: Action, before: list[tuple[Counter[int], int, list]]) -> None:
        tracker = self.tracker
        assert tracker is not None
        seat = self.seat(action.seat)
        lost, gained = _changes(referee, before)
        if action.kind is ActionKind.FLOWER:
            raise Broken("a flower was set aside; the neutral record has no flowers")
        if action.kind in (ActionKind.DISCARD, ActionKind.READY):
            if action.kind is ActionKind.READY:
                tracker.riichi(seat, False)
            tile = lost[action.seat][0]
            tracker.discard(seat, tile, tracker.drawn[seat] == tile)
        elif action.kind is ActionKind.CONCEALED_KONG:
            tracker.call(Call(CallKind.ANKAN, seat, tuple(lost[action.seat])))
        elif action.kind is ActionKind.ADDED_KONG:
            added = lost[action.seat][0]
            pons = (call for call in tracker.melds[seat] if call.kind is CallKind.PON)
            pon = next((call for call in pons if call.tiles[0].kind == added.kind), None)
            if pon is None:
                raise Broken(f"seat {seat} adds {added.code} to a kan, but has no pon of it")
            tracker.call(Call(CallKind.KAKAN, seat, (*pon.tiles, added), added, pon.from_seat))
        for claimer in range(4):
            for meld in referee.seats[claimer].melds[len(before[claimer][2]) :]:
                if not meld.is_concealed_kong:
                    self._claim(claimer, meld.kind, lost[claimer])
        for owner in range(4) if referee.result is None else ():  # a ron puts the won tile in the winner's hand
            for tile in gained[owner]:
                tracker.draw(self.seat(owner), tile)

    def _claim(self, claimer: int, kind: MeldKind, used: list[RecordTile]) -> None:
        tracker = self.tracker
        assert tracker is not None
        last = tracker.last
        if last is None:
            raise Broken(f"seat {claimer} made a meld with no discard on offer")
        seat = self.seat(claimer)
        tiles = tuple(sorted((*used, last.tile)))
        tracker.call(Call(_CLAIMED[kind], seat, tiles, last.tile, last.seat))

    def _result(self, referee: Referee) -> None:
        tracker, result = self.tracker, referee.result
        assert tracker is not None and result is not None
        sticks = [RIICHI_STICK * (seat in referee.ready) for seat in range(4)]
        if not result.wins:
            deltas = [round(result.payments[seat]) + sticks[seat] for seat in range(4)]
            tenpai = None if result.ready is None else tuple(sorted(self.seat(seat) for seat in result.ready))
            kind = _ABORTIVE.get(result.abortive or "", DrawKind.EXHAUSTIVE)
            tracker.drawn_game(DrawnGame(kind, self._seated(deltas), tenpai))
            return
        discarders = {seat: win.discarder for win in result.wins for seat in win.seats}
        for number, win in enumerate(referee.wins):
            self._win(referee, win.seat, discarders.get(win.seat), win.score.to_dict(), head=number == 0)

    def _win(self, referee: Referee, winner: int, discarder: int | None, score: dict, head: bool) -> None:
        tracker, hand = self.tracker, self.hand
        assert tracker is not None and referee.result is not None
        breakdown = score.get("breakdown")
        if breakdown is None:  # MCR: the hand's score changes, one winner
            deltas = [round(referee.result.payments[seat]) for seat in range(4)]
            points = None
            yaku = tuple(Yaku("", fan["name_zh"], fan["points"], fan["count"]) for fan in score["fans"])
        else:  # the honba and the sticks on the table are the first winner's alone (上家取り, ``Referee._finish``)
            parts = breakdown.values() if head else [breakdown["hand"]]
            deltas = [sum(round(part[str(seat)]) for part in parts) for seat in range(4)]
            points = round(breakdown["hand"][str(winner)])
            yaku = tuple(Yaku(item["key"], item["name_ja"], item["han"]) for item in score["yaku"])
        source = winner if discarder is None else discarder
        accepted = sum(1 for move in tracker.moves if isinstance(move, Riichi) and move.accepted)
        pao = score.get("pao")
        offered = tracker.last.tile if discarder is not None and tracker.last is not None else None
        tracker.win(
            Win(
                winner=self.seat(winner),
                from_seat=self.seat(source),
                han=score.get("han", score.get("total", 0)),
                deltas=self._seated(deltas),
                yaku=yaku,
                fu=score.get("fu"),
                points=points,
                limit=score.get("limit", ""),
                pao_seat=None if pao is None else self.seat(pao),
                win_tile=tracker.drawn[self.seat(winner)] if discarder is None else offered,
                honba=hand.honba if head else 0,
                sticks=int(hand.pot) // RIICHI_STICK + accepted if head else 0,
            )
        )

    def _seated(self, deltas: list[int]) -> tuple[int, ...]:
        """Table seats' values in the record's seat order."""
        out = [0] * 4
        for seat, value in enumerate(deltas):
            out[self.seat(seat)] = value
        return tuple(out)


def _indicators(referee: Referee, under: bool) -> list[RecordTile]:
    """The bonus indicators turned (or the tiles under them), red fives flagged: where
    ``Referee.bonus_indicators`` finds them, with the wall's marked places."""
    rule = referee.ruleset.bonus_indicators
    if rule is None:
        return []
    state = referee.wall.state
    places = [state.stack_from_tail(rule.first_stack + k)[under] for k in range(referee.bonus_turned)]
    return [RecordTile(state.faces[place], red=place in state.marked) for place in places]


def _marked(tiles: list[int], marked: list[int]) -> list[RecordTile]:
    """Tiles with their marked copies (red fives) flagged: the first copies of each marked face."""
    left = Counter(marked)
    out = []
    for kind in tiles:
        red = left[kind] > 0
        left[kind] -= red
        out.append(RecordTile(kind, red=red))
    return out


def _snapshot(referee: Referee) -> list[tuple[Counter[int], int, list]]:
    """Each seat's concealed tiles (with the marked counts, kept as negative kinds), its marked count and melds."""
    shot = []
    for seat in referee.seats:
        counts = Counter({kind: n for kind, n in enumerate(seat.known) if n})
        counts.update({-1 - kind: n for kind, n in seat.marked.items() if n})
        shot.append((counts, seat.marked_shown, list(seat.melds)))
    return shot


def _changes(
    referee: Referee, before: list[tuple[Counter[int], int, list]]
) -> tuple[list[list[RecordTile]], list[list[RecordTile]]]:
    """The concealed tiles each seat lost and gained since ``before``, marked copies flagged."""
    lost, gained = [], []
    for seat, (after, _, _) in enumerate(_snapshot(referee)):
        old = before[seat][0]
        lost.append(_tiles(old - after))
        gained.append(_tiles(after - old))
    return lost, gained


def _tiles(counts: Counter[int]) -> list[RecordTile]:
    out = []
    for kind in sorted(k for k in counts if k >= 0):
        reds = counts[-1 - kind]
        out += [RecordTile(kind, red=True)] * reds + [RecordTile(kind)] * (counts[kind] - reds)
    return out
