"""How a ruleset answers ``mjtable settle`` queries (shared/rules/regional/README.md, "Queries").

``Ruleset.settle`` sends the query ``q`` to the method ``answer_q``; a ruleset answers a query by defining that
method. The defaults here follow the general rules (fan.md §1) from the ruleset's own table facts (break method,
tile set, rotation, claim priority, several winners), so a ruleset overrides only what it does differently.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.errors import SettleError, quoted
from engine.match import DealState, HandResult, next_deal
from engine.procedure.breaking import break_wall
from engine.procedure.dice import check_dice, check_seat, dice_seat
from engine.procedure.layout import WallLayout
from engine.rulesets.contract import boolean, contract_seats, read_seat, require
from engine.rulesets.terms import ClaimKind, MultipleWinners, Score, WinContext, payments_out
from engine.settlement import Amount, exact, no_payments
from engine.tiles import WIND_LETTERS, Tile, parse_tiles

if TYPE_CHECKING:
    from engine.rulesets.base import Ruleset  # Ruleset inherits these queries: the annotations only
    from engine.settle import SettleRequest

_PREFIX = "answer_"
_CLAIM_KINDS = {"hu": "hu", "kan": "kong", "pon": "pung", "chi": "chi"}
"""Contract claim types → ``ClaimKind`` values."""


def no_verdict(**fields: Any) -> dict[str, Any]:
    """The answer of a query that declares no win: no verdict, no settlement (README "Output")."""
    return {"hu": None, "payments": None, **fields}


def per_seat(payments: Mapping[int, Amount]) -> dict[str, Amount]:
    """Any per-seat map of amounts as the contract writes it (``"0"``-``"3"``, an absent seat 0): a breakdown part,
    a penalty; ``payments_out`` writes a complete settlement as it stands."""
    return {str(seat): exact(payments.get(seat, 0)) for seat in range(4)}


def nobody_pays_dealer_stays(situation: Mapping[str, Any]) -> dict[str, Any]:
    """The ``drawn_settlement`` answer of the tables where a drawn hand costs nothing and the dealer deals again."""
    dealer = read_seat(require(situation, "dealer"), "dealer")
    return {"hu": None, "payments": payments_out(no_payments()), "next_dealer": dealer}


class ContractQueries:
    """Mixed into ``Ruleset``: the dispatcher and the queries every table answers the same way."""

    def settle(self: Ruleset, request: SettleRequest) -> dict[str, Any]:  # type: ignore[misc]
        """The answer to ``request.query``; ``SettleError`` naming the queries this ruleset answers."""
        method = getattr(self, _PREFIX + request.query, None)
        if method is None:
            raise SettleError(
                f"ruleset {self.id!r} does not answer query {request.query!r}; it answers: "
                + ", ".join(type(self).queries())
            )
        return method(request)

    @classmethod
    def queries(cls) -> list[str]:
        """The queries this ruleset answers with its default options (``mjtable rules`` lists them): the default
        ``multi_win`` only where several players win on one discard."""
        names = {name[len(_PREFIX) :] for name in dir(cls) if name.startswith(_PREFIX)}
        single = cls().multiple_winners is not MultipleWinners.ALL  # type: ignore[abstract]
        if single and cls.answer_multi_win is ContractQueries.answer_multi_win:
            names.discard("multi_win")
        return sorted(names)

    def read_tiles(self, text: str, where: str) -> list[Tile]:
        """Tiles of the contract's compact notation; a ruleset with other faces (十万's rank 10) overrides it.
        Whether each tile belongs to the ruleset's set is checked with the whole hand."""
        try:
            return parse_tiles(text)
        except ValueError as error:
            raise SettleError(f"field {where!r}: {error}") from None

    # --- wins ---------------------------------------------------------------------------------------------

    def win_context(self: Ruleset, request: SettleRequest) -> WinContext:  # type: ignore[misc]
        """The context ``request``'s hand is scored in: its situation (riichi adds the red fives its tiles show)."""
        return WinContext.from_dict(request.situation)

    def answer_score(self: Ruleset, request: SettleRequest) -> dict[str, Any]:  # type: ignore[misc]
        """One winning declaration: verdict, score and payments (``Ruleset.evaluate``)."""
        ctx = self.win_context(request)
        return self.evaluate(request.read_hand(self, ctx), ctx).to_settle()

    def answer_multi_win(self: Ruleset, request: SettleRequest) -> dict[str, Any]:  # type: ignore[misc]
        """Several players win on one discard: each is scored on his own and ``settle_wins`` combines them."""
        if self.multiple_winners is not MultipleWinners.ALL:
            raise SettleError(f"ruleset {self.id!r}: only one player wins on a discard (query 'multi_win')")
        situation = dict(request.situation)
        others = require(situation, "other_winners")
        if not isinstance(others, list) or not others:
            raise SettleError("situation field 'other_winners': expected a list of {seat, hand, melds} objects")
        ctx = self.win_context(request)
        if ctx.discarder is None:
            raise SettleError("situation field 'discarder': several winners need the seat that discarded")
        scores: dict[int, Score] = {ctx.winner: self.evaluate(request.read_hand(self, ctx), ctx)}
        for index, other in enumerate(others):
            where = f"other_winners[{index}]"
            if not isinstance(other, dict) or "seat" not in other:
                raise SettleError(f"situation field {where!r}: expected an object with seat, hand and melds")
            seat = check_seat(other["seat"], f"{where}.seat")
            if seat in scores:
                raise SettleError(f"situation field {where!r}: seat {seat} is already a winner")
            own = {key: value for key, value in other.items() if key not in ("seat", "hand", "melds")}
            melds = other.get("melds", [])
            if not isinstance(melds, list):
                raise SettleError(f"situation field '{where}.melds': expected a list of meld strings, found {melds!r}")
            hand = _text(other.get("hand", ""), f"{where}.hand")
            situation_of_other = {**situation, **own, "winner": seat}
            other_request = replace(request, hand=hand, melds=tuple(melds), situation=situation_of_other)
            other_ctx = self.win_context(other_request)
            scores[seat] = self.evaluate(other_request.read_hand(self, other_ctx), other_ctx)
        winning = [score for score in scores.values() if score.hu]
        return {
            "hu": scores[ctx.winner].hu,
            "payments": payments_out(self.settle_wins(winning)),
            "per_winner": {str(seat): score.to_settle() for seat, score in sorted(scores.items())},
        }

    # --- the deal and the wall ------------------------------------------------------------------------------

    def answer_next_dealer(self: Ruleset, request: SettleRequest) -> dict[str, Any]:  # type: ignore[misc]
        """Who deals next (fan.md §1.5 and BA-6) under the ruleset's ``rotation``."""
        situation = request.situation
        dealer = check_seat(require(situation, "dealer"), "dealer")
        winners = contract_seats(situation.get("winners", []), "winners")
        drawn = boolean(situation, "drawn", not winners)
        if drawn == bool(winners):
            raise SettleError("situation fields 'winners' and 'drawn': a drawn hand has no winners and vice versa")
        discarder = situation.get("discarder")
        if discarder is not None:
            check_seat(discarder, "discarder")
        consecutive = situation.get("consecutive_dealer", 1)
        if type(consecutive) is not int or consecutive < 1:
            raise SettleError(f"situation field 'consecutive_dealer': expected 1 or more, found {consecutive!r}")
        round_wind = situation.get("round_wind", "E")
        if not isinstance(round_wind, str) or len(round_wind) != 1 or round_wind not in WIND_LETTERS:
            raise SettleError(f"situation field 'round_wind': expected E, S, W or N, found {round_wind!r}")
        first = check_seat(situation.get("round_first_dealer", dealer), "round_first_dealer")
        state = DealState(dealer, first, consecutive, WIND_LETTERS.index(round_wind))
        after = next_deal(self.rotation, state, HandResult.from_winners(winners, discarder=discarder))
        return no_verdict(
            next_dealer=after.dealer,
            next_consecutive_dealer=after.consecutive_dealer,
            next_round_wind=None if after.game_over else WIND_LETTERS[after.round_wind],
            game_over=after.game_over,
        )

    def answer_dice_seat(self: Ruleset, request: SettleRequest) -> dict[str, Any]:  # type: ignore[misc]
        """The seat a throw points to, counted from the thrower in play order (fan.md §1.1)."""
        thrower = check_seat(require(request.situation, "thrower"), "thrower")
        dice = check_dice(require(request.situation, "dice"), "dice")
        return no_verdict(seat=dice_seat(thrower, sum(dice)))

    def answer_wall_break(self: Ruleset, request: SettleRequest) -> dict[str, Any]:  # type: ignore[misc]
        """Where the wall opens under the ruleset's break method (fan.md §1.2)."""
        situation = request.situation
        dealer = check_seat(require(situation, "dealer"), "dealer")
        dice = check_dice(require(situation, "dice"), "dice")
        dice2 = situation.get("dice2")
        if dice2 is not None:
            dice2 = check_dice(dice2, "dice2")
        layout = WallLayout.for_size(self.tile_set.size)
        opened = break_wall(dealer, dice, dice2, str(self.break_method), stacks_per_wall=layout.stack_counts)  # type: ignore[arg-type]
        return no_verdict(**opened.to_dict())

    # --- claims -------------------------------------------------------------------------------------------

    def answer_claim_priority(self: Ruleset, request: SettleRequest) -> dict[str, Any]:  # type: ignore[misc]
        """Which claims on one discard are granted: the strongest kind, then the nearest seat after the
        discarder; every hu claim where several may win on a discard."""
        situation = request.situation
        discarder = check_seat(require(situation, "discarder"), "discarder")
        claims = require(situation, "claims")
        if not isinstance(claims, list) or not claims:
            raise SettleError("situation field 'claims': expected a list of {seat, type} objects")
        ranked: list[tuple[int, int, int, str]] = []
        for index, claim in enumerate(claims):
            if not isinstance(claim, dict) or claim.get("type") not in _CLAIM_KINDS:
                raise SettleError(
                    f"situation field 'claims[{index}]': expected {{seat, type}} with type hu/kan/pon/chi"
                )
            seat = check_seat(claim.get("seat"), f"claims[{index}].seat")
            if seat == discarder:
                raise SettleError(f"situation field 'claims[{index}]': the discarder cannot claim his own tile")
            rank = self.claim_rank(ClaimKind(_CLAIM_KINDS[claim["type"]]))
            ranked.append((rank, (seat - discarder) % 4, seat, claim["type"]))
        ranked.sort()
        best_rank, _, nearest, kind = ranked[0]
        granted = [nearest]
        if kind == "hu" and self.multiple_winners is MultipleWinners.ALL:
            granted = [seat for rank, _, seat, _ in ranked if rank == best_rank]
        return no_verdict(granted=granted, granted_type=kind)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise SettleError(f"situation field {where!r}: expected a tile string, found {quoted(value)}")
    return value
