"""Tables without chi (Quanjiao QJ-1, Hebei §5): the claim order 胡 > 碰 = 杠, and a chi claim is no claim."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.rulesets.base import ClaimKind
from engine.rulesets.contract import require
from engine.rulesets.queries import no_verdict

if TYPE_CHECKING:
    from engine.settle import SettleRequest

CLAIM_PRIORITY = (frozenset({ClaimKind.HU}), frozenset({ClaimKind.KONG, ClaimKind.PUNG}))
"""胡牌 > 碰牌（杠牌） (Hebei's text; Quanjiao's claims are 碰, 杠 and 胡)."""


class NoChi:
    """Mixed into a ``Ruleset`` before it: no chi at the table or in ``claim_priority`` answers."""

    @property
    def allows_chi(self) -> bool:
        return False

    @property
    def claim_priority(self) -> tuple[frozenset[ClaimKind], ...]:
        return CLAIM_PRIORITY

    def answer_claim_priority(self, request: SettleRequest) -> dict[str, Any]:
        """A chi claim is left out and the others are ranked as usual; only chi claims → nobody is granted."""
        claims = require(request.situation, "claims")
        if isinstance(claims, list):
            kept = [claim for claim in claims if not (isinstance(claim, dict) and claim.get("type") == "chi")]
            if claims and not kept:
                return no_verdict(granted=[], granted_type=None)
            request = replace(request, situation={**request.situation, "claims": kept})
        return super().answer_claim_priority(request)  # type: ignore[misc]
