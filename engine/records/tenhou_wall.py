"""Tenhou's walls, dealt again from an mjlog's ``SHUFFLE seed``.

An mjlog stores no wall: its draws give the live wall in the order drawn, its indicators a few dead-wall tiles. But
Tenhou published how it shuffles (2022): the seed (``mt19937ar-sha512-n288-base64,`` + 2,496 bytes) is 624
little-endian words that seed MT19937 (``init_by_array``); each hand, in the order played, takes 288 outputs, hashes
them with SHA-512 in nine blocks of 32 words (128 bytes) into 144 words ``rnd``, shuffles the ids 0-135 with
``swap(wall[i], wall[i + rnd[i] % (136 - i)])`` for i = 0..134, and rolls the dice ``rnd[135] % 6`` and
``rnd[136] % 6`` (0-5, as ``INIT seed`` writes them). The tests deal all 229 hands of the 22 real games again this
way and find every deal, draw, replacement tile, indicator and die where the layout below puts it.

Layout of ``tiles`` (positions, not ids): the deal and the live wall are taken from 135 downwards (the dealer's
first four are 135-132, the live wall's first tile 83), and the live wall ends at 14, one later per kan; the dead
wall is 0-13: kan replacements 1, 0, 3, 2; dora indicators 5, 7, 9, 11, 13; ura indicators 4, 6, 8, 10, 12.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from dataclasses import dataclass

from engine.records.errors import RecordError

SEED_PREFIX = "mt19937ar-sha512-n288-base64,"
WALL = 136
LIVE_START = 83
"""The position of the first live tile: 136 less the 52 dealt."""
DEAD = 14
REPLACEMENTS = (1, 0, 3, 2)
DORA = (5, 7, 9, 11, 13)
URA = (4, 6, 8, 10, 12)


@dataclass(frozen=True)
class TenhouWall:
    """One hand's wall: ``tiles[p]`` is the tile id at position ``p`` (see the module's layout), ``dice`` the two
    dice as ``INIT seed`` gives them (0-5)."""

    tiles: tuple[int, ...]
    dice: tuple[int, int]

    def deal(self, dealer: int) -> tuple[tuple[int, ...], ...]:
        """Each seat's 13 tiles in the order taken: three rounds of four from the dealer on, then one each."""
        hands: list[list[int]] = [[], [], [], []]
        position = WALL - 1
        for size in (4, 4, 4, 1):
            for step in range(4):
                seat = (dealer + step) % 4
                hands[seat] += self.tiles[position - size + 1 : position + 1][::-1]
                position -= size
        return tuple(tuple(hand) for hand in hands)

    @property
    def live(self) -> tuple[int, ...]:
        """The live wall in the order drawn, to its end with no kan (each kan ends it one tile earlier)."""
        return self.tiles[DEAD : LIVE_START + 1][::-1]

    @property
    def replacements(self) -> tuple[int, ...]:
        return tuple(self.tiles[p] for p in REPLACEMENTS)

    @property
    def dora(self) -> tuple[int, ...]:
        """The first indicator, then one per kan."""
        return tuple(self.tiles[p] for p in DORA)

    @property
    def ura(self) -> tuple[int, ...]:
        return tuple(self.tiles[p] for p in URA)


class _Twister:
    """MT19937 (Matsumoto and Nishimura), seeded by ``init_by_array``: the generator Tenhou names in its seeds."""

    N, M = 624, 397

    def __init__(self, key: list[int]) -> None:
        n = self.N
        state = [19650218] + [0] * (n - 1)
        for i in range(1, n):
            state[i] = (1812433253 * (state[i - 1] ^ (state[i - 1] >> 30)) + i) & 0xFFFFFFFF
        i, j = 1, 0
        for _ in range(max(n, len(key))):
            state[i] = ((state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
            i, j = i + 1, (j + 1) % len(key)
            if i >= n:
                state[0], i = state[n - 1], 1
        for _ in range(n - 1):
            state[i] = ((state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
            i += 1
            if i >= n:
                state[0], i = state[n - 1], 1
        state[0] = 0x80000000
        self.state = state
        self.index = n

    def _twist(self) -> None:
        state, n, m = self.state, self.N, self.M
        for k in range(n):
            y = (state[k] & 0x80000000) | (state[(k + 1) % n] & 0x7FFFFFFF)
            state[k] = state[(k + m) % n] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self.index = 0

    def words(self, count: int) -> list[int]:
        out = []
        for _ in range(count):
            if self.index >= self.N:
                self._twist()
            y = self.state[self.index]
            self.index += 1
            y ^= y >> 11
            y ^= (y << 7) & 0x9D2C5680
            y ^= (y << 15) & 0xEFC60000
            out.append(y ^ (y >> 18))
        return out


def tenhou_walls(seed: str, count: int) -> tuple[TenhouWall, ...]:
    """The walls of a game's first ``count`` hands, in the order played (``HandRecord.index``). Raises
    ``RecordError`` for a seed that is not Tenhou's ``mt19937ar-sha512-n288-base64`` kind or is damaged."""
    if not seed.startswith(SEED_PREFIX):
        raise RecordError(f"the SHUFFLE seed is not {SEED_PREFIX!r} followed by base64", where="SHUFFLE seed")
    try:
        data = base64.b64decode(seed[len(SEED_PREFIX) :], validate=True)
    except (binascii.Error, ValueError):
        raise RecordError("the SHUFFLE seed is not valid base64", where="SHUFFLE seed") from None
    if not data or len(data) % 4:
        raise RecordError(f"the SHUFFLE seed holds {len(data)} bytes, not whole 32-bit words", where="SHUFFLE seed")
    twister = _Twister(list(struct.unpack(f"<{len(data) // 4}I", data)))
    walls = []
    for _ in range(count):
        source = twister.words(288)
        rnd: list[int] = []
        for block in range(9):
            digest = hashlib.sha512(struct.pack("<32I", *source[32 * block : 32 * block + 32])).digest()
            rnd += struct.unpack("<16I", digest)
        tiles = list(range(WALL))
        for i in range(WALL - 1):
            j = i + rnd[i] % (WALL - i)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        walls.append(TenhouWall(tuple(tiles), (rnd[135] % 6, rnd[136] % 6)))
    return tuple(walls)
