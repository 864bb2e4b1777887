"""Facts the GIS layers answer, as the packs declare them (`layer_facts:`).

Each declaration names a case fact, the layer that answers it and the distance the law sets; the
features within that distance of the subject area decide a yes/no fact or fill a list fact with
their names or holders. A fact the case states too is kept where the layer adds to it, and
where the two disagree the notices either value requires are given and a warning names both.
"""

from __future__ import annotations

from typing import Any, get_args, get_origin

from generator.findings import Finding
from generator.inputs import CaseFile
from generator.models.case import Case
from generator.models.facts import Facts, Holder
from generator.models.recipient_rules import LayerFact
from generator.recipients.model import RecipientList, text
from generator.recipients.owners import MARGIN_FT
from generator.rules.loader import Binding, ResolvedPack, snapshot

_TRUE = ("1", "true", "yes")


def facts_from_layers(cf: CaseFile, pack: ResolvedPack, result: RecipientList) -> None:
    """Answer the pack's layer facts from the case's layers; `result.case` carries the answers."""
    gis = cf.case.gis
    subject = result.subject
    if gis is None or subject is None or not pack.layer_facts:
        return
    import shapely

    from generator.gis.layers import LayerReader

    by_layer: dict[str, list[LayerFact]] = {}
    for declared in pack.layer_facts:
        by_layer.setdefault(declared.layer, []).append(declared)
    x0, y0, x1, y1 = subject.bounds
    facts = cf.case.facts
    updates: dict[str, Any] = {}
    for layer, declarations in by_layer.items():
        spec = getattr(gis, layer)
        if spec is None:
            continue
        reader = LayerReader(cf, layer, spec, result.crs)
        pad = max(d.within_ft for d in declarations) + MARGIN_FT  # one read serves them all
        frame = reader.read(bbox=(x0 - pad, y0 - pad, x1 + pad, y1 + pad))
        result.note_layer(reader)
        for declared in declarations:
            near = frame
            if len(frame):
                near = frame[shapely.dwithin(frame.geometry.values, subject, declared.within_ft)]
            answer = _answer(cf, declared, near, facts, result)
            if answer is not None:
                updates[declared.fact] = answer
    result.case = cf.case.model_copy(update={"facts": facts.model_copy(update=updates)})


def _answer(
    cf: CaseFile, declared: LayerFact, near: Any, facts: Facts, result: RecipientList
) -> Any:
    """The fact's value once the layer is heard; None where the layer cannot answer it."""
    fact = declared.fact
    stated = getattr(facts, fact)
    for column in declared.only_where:
        if column not in near.columns:
            return None  # the case maps no such field: the layer cannot tell
        # A boolean Series, not a list: an empty list would select no columns, not no rows.
        near = near[near[column].map(lambda v: text(v).lower() in _TRUE).astype(bool)]
    if declared.names:
        if declared.names not in near.columns:
            return None
        found = {text(n) for n in near[declared.names] if text(n)}
        if declared.except_own_municipality:
            town = cf.case.municipality.upper()
            found = {n for n in found if town not in n.upper() and n.upper() not in town}
        names = sorted(found)
        result.computed_facts[fact] = names
        if declared.compare_with_case and stated and set(stated) != set(names):
            _disagree(result, fact, stated, names)
        return sorted(set(stated) | set(names))
    if declared.holders:
        fields = declared.holders
        if fields.name not in near.columns:
            return None
        found: dict[str, Holder] = {}
        for _, row in near.iterrows():
            name = text(row[fields.name])
            if name and name not in found:
                address = text(row.get(fields.address)) if fields.address else ""
                # Built, not validated: a case's holder is bounded in length, a layer's is
                # bounded where it is printed.
                found[name] = Holder.model_construct(name=name, address=address or None)
        result.computed_facts[fact] = [*found.values()]
        known = [h.name for h in stated]
        if declared.compare_with_case and stated and set(known) != set(found):
            _disagree(result, fact, known, sorted(found))
        return [*stated, *(h for name, h in found.items() if name not in known)]
    computed = bool(len(near))
    result.computed_facts[fact] = computed
    if declared.compare_with_case and stated is not None and stated != computed:
        _disagree(result, fact, stated, computed)
    return bool(stated) or computed


def _disagree(result: RecipientList, fact: str, stated: Any, computed: Any) -> None:
    result.findings.append(
        Finding(
            "GIS001",
            f"the case states {fact} = {stated}, but the GIS layers show {computed}; the notices"
            " either value requires are given — correct the case or the layer",
        )
    )


def unanswered_facts(stated: Case, pack: ResolvedPack, result: RecipientList) -> None:
    """GIS002 for each layer fact that matters, no layer answered and the case leaves open.

    `stated` is the case as written. A fact matters where an answer would bring in a notice or
    recipients the law requires.

    Whether it matters is asked of the rules themselves: the fact is supposed present, and the
    rules that then apply (or, already applying, take their names from it) are the ones an
    unanswered fact may leave out. The facts are measured from the subject land, so a change
    that names no parcels has none to answer.
    """
    if not stated.parcels or not pack.layer_facts:
        return
    known = result.case or stated  # with what the layers answered
    given = stated.facts.model_fields_set
    base = _in_force(known, pack)
    for declared in pack.layer_facts:
        fact = declared.fact
        if fact in given or fact in result.computed_facts:
            continue
        facts = known.facts.model_copy(update={fact: _present(fact)})
        supposed = _in_force(known.model_copy(update={"facts": facts}), pack)
        brought = [b for i, b in supposed.items() if i not in base]
        brought += [b for b in base.values() if _names_from(b, fact)]
        if brought:
            result.findings.append(_unanswered(stated, declared, brought))


def _in_force(case: Case, pack: ResolvedPack) -> dict[str, Binding]:
    """The rules in force for any hearing of `case`, by id."""
    out: dict[str, Binding] = {}
    for hearing in case.hearings:
        for b in snapshot(pack, case, hearing.date).bindings:
            out.setdefault(b.rule.id, b)
    return out


def _names_from(b: Binding, fact: str) -> bool:
    """Whether a recipients rule takes its recipients from the fact."""
    names = getattr(b.params, "names", None) or []
    return any(source.from_ == f"facts.{fact}" for source in names)


def _present(fact: str) -> Any:
    """A value of the fact that says "yes, there is one"."""
    annotation = Facts.model_fields[fact].annotation
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        return [Holder(name="?")] if item is Holder else ["?"]
    return True


def _unanswered(case: Case, declared: LayerFact, brought: list[Binding]) -> Finding:
    gis, layer = case.gis, declared.layer
    if gis is None or getattr(gis, layer) is None:
        why = f"the case maps no `gis.{layer}` layer"
    elif gis.parcels is None:
        why = f"without `gis.parcels` the land cannot be measured against `gis.{layer}`"
    else:
        why = f"the `gis.{layer}` layer cannot answer it (a field it needs is not mapped)"
    rules = "; ".join(f"{b.rule.id} ({b.rule.title})" for b in brought)
    return Finding(
        "GIS002",
        f"{declared.title}: {why}, and `facts.{declared.fact}` is not stated; where it is"
        f" so, the law requires {rules}. Map the layer, or state the fact (false, or an"
        " empty list, where there is none)",
        rule=brought[0].rule.id,
        citation="; ".join(
            dict.fromkeys(
                [*declared.citation.split("; "), *(c for b in brought for c in b.citations)]
            )
        ),
    )
