"""The pack format reference cannot rot: every field of the pack models is documented.

`jurisdictions/README.md` must name each field (as `` `field` `` or `field:`, also inside an
inline map such as `{count, description}`), and `notices explain --reference` lists each with
its type and description.
"""

from __future__ import annotations

import re

from generator.rules.explain import pack_models, reference
from tests.conftest import ROOT, notices

README = ROOT / "jurisdictions" / "README.md"


def _fields() -> list[tuple[str, str]]:
    return [
        (model.__name__, info.alias or name)
        for model in pack_models()
        for name, info in model.model_fields.items()
    ]


def test_every_field_of_the_pack_models_is_in_the_pack_reference() -> None:
    text = README.read_text(encoding="utf-8")
    missing = [
        f"{model}.{name}"
        for model, name in _fields()
        if not re.search(rf"(?<=[`{{\s,.]){re.escape(name)}(?=[`:,}}])", text)
    ]
    assert not missing, f"jurisdictions/README.md does not document: {', '.join(missing)}"


def test_explain_reference_lists_every_field_slot_and_fact() -> None:
    text = reference()
    for model, name in _fields():
        head = re.search(rf"^{model}: .*?(?=\n\n|\Z)", text, re.MULTILINE | re.DOTALL)
        assert head, model
        envelope = model.endswith("Rule") and name not in ("kind", "params")
        assert f"\n  {name}: " in (text if envelope else head.group(0)), f"{model}.{name}"
    assert "{limitation_days}" not in text  # slots of the case, not of any one pack
    assert "  {municipality.body_name}: " in text and "  municipality_kind: " in text
    done = notices("explain", "--reference")
    assert done.returncode == 0 and done.stdout == text
