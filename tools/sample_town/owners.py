"""Owners: names and mailing addresses from a seeded generator, some owning several parcels."""

from __future__ import annotations

import random
import re

from tools.sample_town.town import _Lot, _Owner, _Town


def _pick(rng: random.Random, shares: dict[str, float]) -> str:
    x, acc = rng.random() * sum(shares.values()), 0.0
    for key, share in shares.items():
        acc += share
        if x < acc:
            return key
    return next(reversed(shares))


def _norm(name: str) -> str:
    return " ".join(re.sub(r"[^\w&' ]", " ", name.upper()).split())


class _People:
    """Owner names and mailing addresses for one town, never the same name twice."""

    def __init__(self, town: _Town) -> None:
        self.town, self.rng = town, town.rng
        names = town.common["names"]
        self.surnames = [*names["surnames"], *town.spec.get("surnames", [])]
        self.male, self.female = names["given_male"], names["given_female"]
        self.words, self.kinds = names["company_words"], names["company_kinds"]
        self.used: set[str] = set()
        self.streets = sorted({s.name for s in town.streets if s.kind != "canal"} | {s.name_neg for s in town.streets if s.name_neg})  # fmt: skip
        self.streets = [s for s in self.streets if "RAIL" not in s]

    def _first(self, female: bool | None = None) -> str:
        if female is None:
            female = self.rng.random() < 0.5
        return self.rng.choice(self.female if female else self.male)

    def _mi(self) -> str:
        return f" {self.rng.choice('ABCDEFGHJKLMNPRSTW')}" if self.rng.random() < 0.4 else ""

    def _candidate(self, kind: str) -> tuple[str, str]:
        r, last = self.rng, self.rng.choice(self.surnames)
        if kind == "person":
            return f"{last} {self._first()}{self._mi()}", ""
        if kind == "couple":
            return f"{last} {self._first(False)}{self._mi()} & {self._first(True)}{self._mi()}", ""
        if kind == "couple_two_lines":
            return (
                f"{last} {self._first(False)}{self._mi()}",
                f"{last} {self._first(True)}{self._mi()}",
            )
        if kind == "joint":
            return f"{last} {self._first()}", f"{r.choice(self.surnames)} {self._first()}"
        if kind == "llc":
            form = r.random()
            if form < 0.45:
                return f"{r.choice(self.words)} {r.choice(self.kinds)} LLC", ""
            if form < 0.75:
                return f"{last} {r.choice(self.kinds)} LLC", ""
            if form < 0.9:
                return f"{last} & {r.choice(self.surnames)} LLC", ""
            return f"{r.randint(10, 2999)} {r.choice(self.streets)} LLC", ""
        if kind == "inc":
            return f"{r.choice(self.words)} {r.choice(self.kinds)} INC", ""
        if kind == "trust":
            first = self._first()
            trust = r.choice(
                [
                    f"{last} FAMILY TRUST",
                    f"{last} {first}{self._mi()} REVOCABLE TRUST",
                    f"{last} {first} LIVING TRUST",
                ]
            )
            return trust, (f"{last} {first} TRUSTEE" if r.random() < 0.5 else "")
        if kind == "estate":
            return f"{last} {self._first()}{self._mi()} EST", ""
        if kind == "farm":
            return r.choice([f"{last} FAMILY FARMS LLC", f"{last} FARMS INC", f"{last} RANCH LLC", f"{last} LAND & CATTLE CO"]), ""  # fmt: skip
        raise ValueError(f"unknown owner kind {kind!r}")

    def name(self, kind: str) -> tuple[str, str]:
        for _ in range(100):
            name1, name2 = self._candidate(kind)
            if _norm(name1) not in self.used:
                self.used.add(_norm(name1))
                return name1, name2
        raise ValueError("ran out of owner names")

    def _zip(self, zip5: str) -> str:
        share = float(self.town.common["owners"]["zip4_share"])
        return f"{zip5}-{self.rng.randint(1, 9999):04d}" if self.rng.random() < share else zip5

    def mail(self, where: str, lot: _Lot, kind: str) -> tuple[str, str, str, str, str]:
        """Mailing address lines, city, state and ZIP for an owner who mails `where`."""
        r, spec = self.rng, self.town.spec
        names = self.town.common["names"]
        state = spec["state"]
        postal = spec["neighbour"]["postal"] if lot.neighbour else spec["postal"]
        if where == "occupant" and lot.site:
            return lot.site, "", postal["city"], state, self._zip(lot.zip)
        if where in ("occupant", "town"):
            line = f"PO BOX {r.randint(1, 4999)}" if r.random() < 0.2 else f"{r.randint(2, 2999)} {r.choice(self.streets)}"  # fmt: skip
            city, zip5 = postal["city"], postal["zip"]
        elif where == "state":
            city, zip5 = r.choice(spec["in_state"])
            line = f"{r.randint(2, 9999)} {r.choice(names['mail_streets'])}"
        else:
            city, state, zip5 = r.choice([c for c in names["out_of_state"] if c[1] != state])
            line = f"{r.randint(2, 9999)} {r.choice(names['mail_streets'])}"
        line2 = ""
        if not line.startswith("PO BOX"):
            if kind in ("llc", "inc", "trust") and r.random() < 0.12:
                line, line2 = f"C/O {self._first()} {r.choice(self.surnames)}", line
            elif r.random() < 0.1:
                line2 = r.choice(names["units"])
        return line, line2, city, state, self._zip(zip5)


def _variant(text: str, rng: random.Random) -> str:
    """The same name or address written another way: other case, or doubled spaces."""
    if rng.random() < 0.5:
        return text.title()
    words = text.split(" ")
    if len(words) < 2:
        return text.lower().title()
    i = rng.randrange(1, len(words))
    return " ".join(words[:i]) + "  " + " ".join(words[i:])


def _owners(town: _Town) -> None:
    rng, spec, mix = town.rng, town.spec, town.common["owners"]
    people = _People(town)
    institutions = spec.get("institutions", {})
    inst_owners: dict[str, _Owner] = {}
    for key, inst in institutions.items():
        people.used.add(_norm(inst["name"]))
        lines = [*inst["mail"], ""]
        inst_owners[key] = _Owner(inst["name"], "", lines[0], lines[1], inst["city"], inst.get("state", spec["state"]), inst["zip"])  # fmt: skip
    for lot in town.lots:
        if lot.subject is not None:
            o = lot.subject["owner"]
            lines = [*o["mail"], ""]
            lot.owner = _Owner(o["name"], o.get("name2", ""), lines[0], lines[1], o["city"], o["state"], o["zip"])  # fmt: skip
            people.used.add(_norm(o["name"]))
        elif lot.owner_key:
            lot.owner = inst_owners[lot.owner_key]
    open_lots = [lot for lot in town.lots if lot.owner is None]
    for scatter in spec.get("scatter", []):
        box_ = scatter.get("near")
        pool = [
            lot
            for lot in open_lots
            if lot.owner is None
            and lot.kind == "lots"
            and (
                box_ is None
                or (box_[0] <= lot.center[0] <= box_[2] and box_[1] <= lot.center[1] <= box_[3])
            )
        ]
        for lot in rng.sample(pool, min(int(scatter["lots"]), len(pool))):
            lot.owner = inst_owners[scatter["owner"]]
    free = [lot for lot in open_lots if lot.owner is None]
    counts = list(mix["parcels_per_multi_owner"])
    share = float(mix["multi_owner_share"])
    mean_k = sum(counts) / len(counts)
    n_multi = round(share * len(free) / (1 - share + share * mean_k))
    index = {id(lot): i for i, lot in enumerate(free)}
    taken = [False] * len(free)
    for _ in range(n_multi):
        k = rng.choice(counts)
        kind = _pick(rng, mix["kinds"]["multi"])
        name1, name2 = people.name(kind)
        chosen: list[_Lot] = []
        while len(chosen) < k:
            if chosen and rng.random() < 0.5:
                i = index[id(chosen[-1])] + 1
                while i < len(free) and taken[i]:
                    i += 1
                if i >= len(free):
                    continue
            else:
                i = rng.randrange(len(free))
                if taken[i]:
                    continue
            taken[i] = True
            chosen.append(free[i])
        where = _pick(rng, mix["mail"]["multi"])
        mail = people.mail(where, chosen[0], kind)
        owner = _Owner(name1, name2, *mail)
        vary = rng.random() < float(mix["variant_share"])
        for j, lot in enumerate(chosen):
            lot.owner = owner
            if vary and j > 0 and rng.random() < 0.6:
                lot.variant = (True, rng.random() < 0.5)
    for i, lot in enumerate(free):
        if taken[i]:
            continue
        kind = _pick(rng, mix["kinds"][lot.use])
        name1, name2 = people.name(kind)
        where = _pick(rng, mix["mail"][lot.use])
        lot.owner = _Owner(name1, name2, *people.mail(where, lot, kind))
