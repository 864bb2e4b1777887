"""Find a pack by id, resolve its `extends` chain, and merge state and local rules.

A pack lives in `jurisdictions/<id>.yaml`, or in a folder `jurisdictions/<id>/` holding
`pack.yaml` and any number of other files that each hold a `rules:` list. A folder of packs
given with `packs` (a pack author's, the test corpus's) is searched before `jurisdictions/`,
for the pack asked for and for its parents.

One rule id may be declared several times in one pack, each time with the `effective` dates of
one version of the law: G.S. 160A-364 until Chapter 160D replaced it, then G.S. 160D-601, both
the `published_notice` a local rule supplements and an affidavit proves. At most one version is
in force on any day, so whatever names the rule names the law of the day.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

from pydantic import Field

from generator.errors import Problem, UserError, display_path
from generator.hashing import sha256_files
from generator.models.base import Model, validate
from generator.models.case import Case
from generator.models.conditions import COMPUTED, OPTION, evaluate, facts_in, options_in
from generator.models.options import CaseOption
from generator.models.pack import (
    AnyRule,
    LegalRateCap,
    Municipality,
    Pack,
    PublicationCosts,
    Rule,
    clashing_ids,
)
from generator.models.recipient_rules import OWNER_GROUPS, ComputedFact, LayerFact
from generator.models.slots import template_slots
from generator.models.timing import Calendar, TimeCounting
from generator.paths import jurisdictions
from generator.rules.merge import Difference, EmptyWindowError, bind
from generator.yamlio import Located, load


class RulesFile(Model):
    """A file of a pack folder other than `pack.yaml`: more rules."""

    rules: list[AnyRule] = Field(default_factory=list)


@dataclass(frozen=True)
class PackFile:
    """One loaded pack and the files it came from."""

    pack: Pack
    files: tuple[Path, ...]
    where: dict[str, tuple[str, int | None, str]] = field(default_factory=dict)

    def problem(self, rule_id: str, field_path: str, message: str) -> Problem:
        """A problem located at the rule `rule_id` of this pack."""
        file, line, loc = self.where.get(rule_id, (display_path(self.files[0]), None, "rules"))
        return Problem(file, line, None, f"{loc}.{field_path}", message)

    @property
    def sha256(self) -> str:
        """One hash over the pack's files, for the manifest."""
        return sha256_files(self.files)


@dataclass(frozen=True)
class Pair:
    """A local rule that supplements a state rule: both bind, and the stricter value wins."""

    parent: Rule
    child: Rule


@dataclass
class ResolvedPack:
    """A pack with its chain resolved: every rule from broad to narrow, and their pairings."""

    id: str
    chain: list[PackFile]
    rules: list[Rule]
    origin: dict[str, str]
    pairs: list[Pair] = field(default_factory=list)

    @property
    def pack(self) -> Pack:
        """The narrowest pack of the chain (the one asked for)."""
        return self.chain[-1].pack

    def _narrowest(self, name: str) -> Any:
        """Field `name` of the narrowest pack of the chain that states it, else None."""
        return next((v for p in reversed(self.chain) if (v := getattr(p.pack, name))), None)

    @property
    def time_counting(self) -> TimeCounting | None:
        """The counting convention, from the narrowest pack that states one."""
        return self._narrowest("time_counting")

    @property
    def calendar(self) -> Calendar | None:
        """The state calendar with every pack's additions and removals."""
        calendars = [p.pack.calendar for p in self.chain if p.pack.calendar]
        if not calendars:
            return None
        base = calendars[0]
        return base.model_copy(
            update={
                "additions": [a for c in calendars for a in c.additions],
                "removals": [r for c in calendars for r in c.removals],
                "library_exclusions": [x for c in calendars for x in c.library_exclusions],
            }
        )

    @property
    def terms(self) -> dict[str, str]:
        """The names notices use, narrowest pack first, with the common defaults."""
        out = {
            "ordinance": "Zoning Ordinance",
            "zoning_map": "Official Zoning Map",
            "hearing": "public hearing",
        }
        for pf in self.chain:
            out.update({k: v for k, v in pf.pack.terms.model_dump().items() if v})
        return out

    @property
    def municipality(self) -> Municipality | None:
        """The municipality the narrowest pack that names one serves."""
        return self._narrowest("municipality")

    @property
    def legal_rate_cap(self) -> LegalRateCap | None:
        """The statute's cap on legal-notice rates, from the narrowest pack that states one."""
        return self._narrowest("legal_rate_cap")

    @property
    def publication_costs(self) -> PublicationCosts | None:
        """Who pays the newspaper, from the narrowest pack that says."""
        return self._narrowest("publication_costs")

    @property
    def governing_body(self) -> str | None:
        """The governing body as printed, from the narrowest pack that states one."""
        return self._narrowest("governing_body")

    @property
    def measure_crs(self) -> str | None:
        """The narrowest pack's measuring CRS."""
        return self._narrowest("measure_crs")

    @property
    def measure_unit(self) -> str | None:
        """The foot the pack that states `measure_crs` says it is in (stated with it)."""
        return next((p.pack.measure_unit for p in reversed(self.chain) if p.pack.measure_crs), None)

    @property
    def timezone(self) -> str | None:
        """The narrowest pack's time zone."""
        return self._narrowest("timezone")

    @property
    def state(self) -> str | None:
        """The USPS code of the state whose law the chain applies."""
        return next((p.pack.state for p in reversed(self.chain) if p.pack.state), None)

    @property
    def options(self) -> dict[str, CaseOption]:
        """The options a case of this jurisdiction may elect, by id (the narrowest declaration)."""
        return {o.id: o for pf in self.chain for o in pf.pack.options}

    @property
    def layer_facts(self) -> list[LayerFact]:
        """The facts GIS layers answer, in the order first declared; the narrowest pack decides."""
        out: dict[str, LayerFact] = {}
        for pf in self.chain:
            out.update({f.fact: f for f in pf.pack.layer_facts})
        return list(out.values())

    @property
    def computed_facts(self) -> list[ComputedFact]:
        """The counts the packs declare, in the order first declared; the narrowest pack decides."""
        out: dict[str, ComputedFact] = {}
        for pf in self.chain:
            out.update({f.id: f for f in pf.pack.computed_facts})
        return list(out.values())

    def rule(self, rule_id: str, on: date | None = None) -> Rule:
        """The rule with this id: its version in force on `on`, else its newest version."""
        versions = self._by_id[rule_id]
        live = [r for r in versions if on and r.effective.covers(on)]
        return live[0] if live else max(versions, key=_newest)

    @cached_property
    def _by_id(self) -> dict[str, list[Rule]]:
        # Looked up for every recipient of a mailing: an index, not a scan.
        out: dict[str, list[Rule]] = {}
        for r in self.rules:
            out.setdefault(r.id, []).append(r)
        return out


def _newest(rule: Rule) -> tuple[date, date]:
    """How recent a version of a rule is: the last in force, then the last to come into force."""
    return (rule.effective.to or date.max, rule.effective.from_ or date.min)


Roots = Path | Sequence[Path] | None


def search_path(root: Roots = None, packs: Path | None = None) -> tuple[Path, ...]:
    """The folders packs are looked for in, in order: `packs`, then `root` (or `jurisdictions()`)."""
    if root is None:
        roots: tuple[Path, ...] = (jurisdictions(),)
    else:
        roots = (root,) if isinstance(root, Path) else tuple(root)
    return (packs, *roots) if packs else roots


def pack_paths(pack_id: str, root: Roots = None) -> list[Path]:
    """The files of pack `pack_id`, header first, from the first folder that has it; or none."""
    for folder in search_path(root):
        single = folder / f"{pack_id}.yaml"
        if single.is_file():
            return [single]
        if (folder / pack_id / "pack.yaml").is_file():
            rest = sorted(p for p in (folder / pack_id).glob("*.yaml") if p.name != "pack.yaml")
            return [folder / pack_id / "pack.yaml", *rest]
    return []


def available(root: Roots = None) -> list[str]:
    """Every pack id in the folders of `root`."""
    ids: set[str] = set()
    for folder in search_path(root):
        ids |= {p.stem for p in folder.glob("*.yaml")}
        ids |= {p.parent.name for p in folder.glob("*/pack.yaml")}
    return sorted(ids)


def load_pack_file(pack_id: str, root: Roots = None) -> PackFile:
    """Load and validate one pack (without its parents)."""
    paths = pack_paths(pack_id, root)
    if not paths:
        known = ", ".join(available(root)) or "none"
        raise UserError(f"unknown jurisdiction {pack_id!r}; known packs: {known}")
    header = load(paths[0])
    pack = validate(Pack, header)
    problems: list[Problem] = []
    if pack.id != pack_id:
        problems.append(
            header.problem(("id",), f"must be {pack_id!r}, the name of the pack's file")
        )
    rules = list(pack.rules)
    where = _rule_lines(header, rules)
    for section, key in (("options", "id"), ("layer_facts", "fact"), ("computed_facts", "id")):
        for i, entry in enumerate(getattr(pack, section)):
            pos = header.values.get((section, i))
            where[f"{section}:{getattr(entry, key)}"] = (
                header.file,
                pos[0] if pos else None,
                f"{section}[{i}]",
            )
    for path in paths[1:]:
        doc = load(path)
        try:
            more = validate(RulesFile, doc).rules
        except UserError as exc:
            problems.extend(exc.problems)
            continue
        where.update(_rule_lines(doc, more))
        rules.extend(more)
    for dup, why in clashing_ids(rules):
        problems.append(
            Problem(
                display_path(paths[0].parent),
                None,
                None,
                "rules",
                f"rule id {dup!r} is used twice: {why}",
            )
        )
    if problems:
        raise UserError(problems)
    return PackFile(pack.model_copy(update={"rules": rules}), tuple(paths), where)


def _rule_lines(doc: Located, rules: list[Rule]) -> dict[str, tuple[str, int | None, str]]:
    lines = {}
    for i, rule in enumerate(rules):
        pos = doc.values.get(("rules", i))
        lines[rule.id] = (doc.file, pos[0] if pos else None, f"rules[{i}]")
    return lines


def resolve(pack_id: str, root: Roots = None, *, packs: Path | None = None) -> ResolvedPack:
    """Load a pack and its parents, and merge their rules (DESIGN.md §3).

    `packs`: a folder of packs searched before `root` (the project's `jurisdictions/`).
    """
    return _resolve(pack_id, tuple(p.resolve() for p in search_path(root, packs)))


@cache
def _resolve(pack_id: str, root: tuple[Path, ...]) -> ResolvedPack:
    chain: list[PackFile] = []
    seen: list[str] = []
    current: str | None = pack_id
    while current:
        if current in seen:
            cycle = " -> ".join([*seen, current])
            raise UserError(f"jurisdictions: extends cycle: {cycle}")
        seen.append(current)
        try:
            chain.insert(0, load_pack_file(current, root))
        except UserError as exc:
            if current != pack_id and "unknown jurisdiction" in str(exc):
                child = seen[-2]
                raise UserError(
                    Problem(
                        display_path(pack_paths(child, root)[0]),
                        None,
                        None,
                        "extends",
                        f"parent pack {current!r} does not exist",
                    )
                ) from None
            raise
        current = chain[0].pack.extends
    rules: list[Rule] = []
    origin: dict[str, str] = {}
    pairs: list[Pair] = []
    problems: list[Problem] = []
    for pf in chain:
        for rule in pf.pack.rules:
            target = rule.replaces or rule.supplements
            if rule.id in origin and origin[rule.id] != pf.pack.id:  # a version is no clash
                problems.append(
                    pf.problem(
                        rule.id,
                        "id",
                        f"rule id {rule.id!r} is already used by pack {origin[rule.id]!r}; give the"
                        " local rule its own id and say `supplements:` or `replaces:`",
                    )
                )
                continue
            if target and target not in origin:
                link = "replaces" if rule.replaces else "supplements"
                problems.append(
                    pf.problem(rule.id, link, f"{target!r} is not a rule of a parent pack")
                )
                continue
            if rule.replaces:
                rules = [r for r in rules if r.id != rule.replaces]
                pairs = [p for p in pairs if p.parent.id != rule.replaces]
            elif rule.supplements:
                # Every version of the parent: the local rule binds with whichever is in force.
                parents = [r for r in rules if r.id == rule.supplements]
                if parents and parents[0].kind != rule.kind:
                    problems.append(
                        pf.problem(
                            rule.id,
                            "supplements",
                            f"supplements a {parents[0].kind} rule but is a {rule.kind} rule",
                        )
                    )
                    continue
                pairs += [Pair(parent, rule) for parent in parents]
            rules.append(rule)
            origin[rule.id] = pf.pack.id
    if problems:
        raise UserError(problems)
    resolved = ResolvedPack(pack_id, chain, rules, origin, pairs)
    _check_references(resolved)
    _check_declarations(resolved)
    return resolved


def _check_references(resolved: ResolvedPack) -> None:
    """Rules that name other rules (`notice:`, `proves:`) must name real ones."""
    ids = {r.id for r in resolved.rules}
    files = {pf.pack.id: pf for pf in resolved.chain}
    problems = []
    for rule in resolved.rules:
        for attr in ("notice", "proves", "same_content_as"):
            targets = getattr(rule.params, attr, None) or []
            for target in [targets] if isinstance(targets, str) else targets:
                if target in ids:
                    continue
                pf = files[resolved.origin[rule.id]]
                problems.append(
                    pf.problem(
                        rule.id, f"params.{attr}", f"no rule {target!r} in this pack or its parents"
                    )
                )
    if problems:
        raise UserError(problems)


def _check_declarations(resolved: ResolvedPack) -> None:
    """Options and layer facts along the chain agree, and every option a rule tests is declared.

    A narrower pack may declare again an option or a layer fact of a parent (to cite its own
    law): an option keeps its type and choices, and a fact is read at least as far as the
    parent reads it, since local law adds to state law and never takes from it.
    """
    problems: list[Problem] = []
    options: dict[str, tuple[CaseOption, str]] = {}
    facts: dict[str, tuple[LayerFact, str]] = {}
    for pf in resolved.chain:
        for option in pf.pack.options:
            parent = options.get(option.id)
            if parent and (parent[0].type, parent[0].choices) != (option.type, option.choices):
                was = parent[0].type + (
                    f" ({', '.join(parent[0].choices)})" if parent[0].choices else ""
                )
                problems.append(
                    pf.problem(
                        f"options:{option.id}",
                        "type",
                        f"pack {parent[1]!r} declares option {option.id!r} as {was};"
                        " declare it the same way",
                    )
                )
            options[option.id] = (option, pf.pack.id)
        for fact in pf.pack.layer_facts:
            parent_fact = facts.get(fact.fact)
            if parent_fact and (
                fact.layer != parent_fact[0].layer or fact.within_ft < parent_fact[0].within_ft
            ):
                problems.append(
                    pf.problem(
                        f"layer_facts:{fact.fact}",
                        "within_ft",
                        f"pack {parent_fact[1]!r} reads {fact.fact} from {parent_fact[0].layer}"
                        f" within {parent_fact[0].within_ft:g} ft; a narrower pack reads the"
                        " same layer at least as far",
                    )
                )
            facts[fact.fact] = (fact, pf.pack.id)
    problems += _computed_problems(resolved)
    problems += _content_problems(resolved)
    declared = resolved.options
    for pf, rule in ((f, r) for f in resolved.chain for r in f.pack.rules):
        elected = getattr(rule.params, "elected_by", None) or ""
        tested = [("when", option_id, want) for option_id, want in options_in(rule.when)]
        if elected.startswith(OPTION):
            tested.append(("params.elected_by", elected.removeprefix(OPTION), None))
        template = getattr(rule.params, "template", None) or ""
        tested += [
            ("params.template", slot.removeprefix(OPTION), None)
            for slot in (template_slots(template) if template else [])
            if slot.startswith(OPTION)
        ]
        for where, option_id, want in tested:
            option = declared.get(option_id)
            if option is None:
                known = ", ".join(sorted(declared)) or "none"
                problems.append(
                    pf.problem(
                        rule.id,
                        where,
                        f"rule {rule.id} names option {option_id!r}, which is not declared under"
                        f" `options:` of this pack or its parents (declared: {known})",
                    )
                )
                continue
            bad = _unknown_values(option, want)
            if bad:
                problems.append(
                    pf.problem(
                        rule.id,
                        "when",
                        f"rule {rule.id} compares option {option_id!r} with {', '.join(bad)},"
                        f" not one of its choices ({', '.join(option.choices)})",
                    )
                )
    if problems:
        raise UserError(problems)


def _content_problems(resolved: ResolvedPack) -> list[Problem]:
    """A group whose `content` names a kind of document receives what its notice rule makes."""
    problems: list[Problem] = []
    for pf, rule in ((f, r) for f in resolved.chain for r in f.pack.rules):
        content = getattr(rule.params, "content", None)
        notice = getattr(rule.params, "notice", None)
        if content not in ("letters", "transmittal") or not notice:
            continue
        made = getattr(resolved.rule(notice).params, "document", None)
        if made is not None and made.value != content:
            problems.append(
                pf.problem(
                    rule.id,
                    "params.content",
                    f"the group receives {content}, but its notice rule {notice} makes"
                    f" {made.value}: name a notice rule that makes {content}, or a letter"
                    " (owner_letter, applicant_letter, agency_letter)",
                )
            )
    return problems


def _computed_problems(resolved: ResolvedPack) -> list[Problem]:
    """Each computed fact counts the subject or an owner rule; each one a rule tests is declared."""
    problems: list[Problem] = []
    rules = {r.id: r for r in resolved.rules}
    for pf in resolved.chain:
        for fact in pf.pack.computed_facts:
            target = rules.get(fact.of)
            owners = getattr(target.params, "group", None) in OWNER_GROUPS if target else False
            if fact.of != "subject" and not owners:
                problems.append(
                    pf.problem(
                        f"computed_facts:{fact.id}",
                        "of",
                        f"{fact.of!r} is neither `subject` nor a recipients rule of owners of"
                        " this pack or its parents",
                    )
                )
    declared = {f.id for f in resolved.computed_facts}
    for pf, rule in ((f, r) for f in resolved.chain for r in f.pack.rules):
        for key in facts_in(rule.when):
            if key.startswith(COMPUTED) and key.removeprefix(COMPUTED) not in declared:
                problems.append(
                    pf.problem(
                        rule.id,
                        "when",
                        f"rule {rule.id} tests {key}, which is not declared under"
                        f" `computed_facts:` of this pack or its parents (declared:"
                        f" {', '.join(sorted(declared)) or 'none'})",
                    )
                )
    return problems


def _unknown_values(option: CaseOption, want: Any) -> list[str]:
    """The values a condition compares a choices option with that are not among its choices."""
    if option.type != "choices" or want is None:
        return []
    values: list[Any] = []
    for value in want.values() if isinstance(want, dict) else [want]:
        values += value if isinstance(value, list) else [value]
    return [repr(v) for v in values if v not in option.choices]


P = TypeVar("P", bound=Model)


@dataclass(frozen=True)
class Binding(Generic[P]):
    """A rule in force for a case, with the params that bind after merging local law."""

    rule: Rule
    params: P
    supplemented_by: tuple[Rule, ...] = ()
    differences: tuple[Difference, ...] = ()

    @property
    def citations(self) -> list[str]:
        """The citations of every rule behind this binding."""
        return [self.rule.citation, *(r.citation for r in self.supplemented_by)]

    @property
    def ids(self) -> list[str]:
        """The ids of every rule behind this binding."""
        return [self.rule.id, *(r.id for r in self.supplemented_by)]


@dataclass(frozen=True)
class Snapshot:
    """The rules that apply to one case on one date, merged; and the facts assumed false.

    Without a case (`snapshot(pack, None, on)`), the rules whose `when` only a case can decide
    are `undecided`, and the rest are merged as for a case.
    """

    pack: ResolvedPack
    on: date
    bindings: tuple[Binding[Model], ...]
    assumed: frozenset[str]
    undecided: tuple[Rule, ...] = ()
    # Computed facts that could not be counted, each with the rules it left undecided (applied).
    unknown: tuple[tuple[str, str], ...] = ()
    # Rules whose version the filing date decides, applied by the hearing's date for want of it.
    unjudged: tuple[str, ...] = ()

    def of(self, kind: type[P]) -> list[Binding[P]]:
        """The bindings whose params are of `kind` (NoticeParams, ClauseParams, ...)."""
        return [cast(Binding[P], b) for b in self.bindings if isinstance(b.params, kind)]


def snapshot(resolved: ResolvedPack, case: Case | None, on: date) -> Snapshot:
    """Select the rules in force on `on` whose `when` holds for `case`, and merge pairs.

    With `case` None, a rule with a `when` is neither kept nor dropped: it is `undecided`.
    """
    assumed: set[str] = set()
    unknown: list[tuple[str, str]] = []
    unjudged: list[str] = []
    live: list[Rule] = []
    undecided: list[Rule] = []
    filed = case.petition_received if case is not None else None
    for rule in resolved.rules:
        if rule.effective.judged_by == "filing" and filed is not None:
            if not rule.effective.covers(filed):
                continue
        elif not rule.effective.covers(on):
            continue
        elif rule.effective.judged_by == "filing" and rule.id not in unjudged:
            unjudged.append(rule.id)
        if case is None:
            (undecided if rule.when else live).append(rule)
            continue
        outcome = evaluate(rule.when, case, resolved.options)
        assumed |= outcome.assumed
        unknown += [(fact, rule.id) for fact in sorted(outcome.unknown)]
        if outcome.value:
            live.append(rule)
    # Rules, not ids: two versions of a parent share an id, and only the one in force merges.
    in_force = {id(r) for r in live}
    children: dict[int, list[Rule]] = {}
    for pair in resolved.pairs:
        if id(pair.parent) in in_force and id(pair.child) in in_force:
            children.setdefault(id(pair.parent), []).append(pair.child)
    absorbed = {id(c) for kids in children.values() for c in kids}
    bindings: list[Binding[Model]] = []
    for rule in live:
        if id(rule) in absorbed:
            continue
        params, diffs = rule.params, []
        kids = children.get(id(rule), [])
        for child in kids:
            try:
                params, more = bind(params, child.params)
            except EmptyWindowError as exc:
                raise UserError(
                    f"{resolved.id}: {child.id} ({child.citation}) and {rule.id} ({rule.citation}): {exc}"
                ) from None
            diffs.extend(more)
        bindings.append(Binding(rule, params, tuple(kids), tuple(diffs)))
    return Snapshot(
        resolved,
        on,
        tuple(bindings),
        frozenset(assumed),
        tuple(undecided),
        tuple(unknown),
        tuple(unjudged),
    )
