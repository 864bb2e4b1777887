"""A 10,000-recipient mailing: letters PDF, labels and lists, against page-by-page rendering.

Prints the wall time, peak memory (this process and its children) and pages per second of the
whole mailing, and the rate of rendering the same letters page by page through WeasyPrint
(timed on a sample and scaled).

Run: .venv/bin/python bench/mailing.py [--recipients 10000] [--sample 200]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def peak_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--recipients", type=int, default=10_000)
    parser.add_argument("--sample", type=int, default=200)
    args = parser.parse_args()

    from weasyprint import HTML

    from generator import letters, mailing
    from generator.inputs import load_case
    from generator.plan import plan
    from generator.recipients import Recipient
    from generator.render import context as ctx
    from generator.render import pdf, templates
    from generator.rules.loader import resolve

    cf = load_case(ROOT / "cases" / "ep-2027-za-03.yaml")
    people = [
        Recipient(
            f"OWNER {n:05d} & SPOUSE",
            [f"{n} MAIN ST"],
            "EAST PROVIDENCE",
            "RI",
            "02914",
            "",
            parcels=[f"P-{n}"],
        )
        for n in range(args.recipients)
    ]

    pack = resolve(cf.case.jurisdiction)
    the_plan = plan(cf.case, pack)
    doc = the_plan.letters[0]
    env = templates.environment(pack, autoescape=True)
    stylesheet = templates.find(pack, "notice.css").read_text()
    context = ctx.build(the_plan, doc, stylesheet)
    context["letter"] = {
        "date": "Tuesday, March 2, 2027",
        "salutation": "Property Owner",
        "reason": "You own land near the proposal.",
        "body_top_in": 2.75,
    }
    body_html = templates.render(env, "letter.html.j2", context)

    start = time.perf_counter()
    body = pdf.write_pdf(body_html, {}, templates.search_path(pack))
    pieces = mailing.pieces(people)
    shown = [0]

    def progress(n: int) -> None:
        if n * 20 // len(people) > shown[0]:
            shown[0] = n * 20 // len(people)
            print(
                f"\r  letters [{'#' * shown[0]}{'.' * (20 - shown[0])}] {n}/{len(people)}",
                end="",
                file=sys.stderr,
            )

    made = letters.combine(
        body,
        pieces,
        sender=["City of East Providence", "145 Taunton Avenue", "East Providence RI 02914"],
        progress=progress,
    )
    print(file=sys.stderr)
    from generator.render import docx

    context["recipients"] = letters.for_word()
    one = docx.render(
        pack,
        templates.find(pack, "letters.docx"),
        context,
        full_text=None,
        map_image=None,
        title="bench",
    )
    word = letters.word(one, pieces)
    labels, _ = mailing.labels_pdf(pieces)
    listing = mailing.mail_house_csv(pieces)
    firm = mailing.firm_mailing_pdf(
        pieces, sender=["City of East Providence"], certified=False, title="bench"
    )
    took = time.perf_counter() - start
    pages = made.pages
    print(f"{len(people):,} letters ({made.pages:,} pages, {len(made.pdf) / 1e6:.1f} MB; Word {len(word) / 1e6:.1f} MB), {len(labels) / 1e6:.1f} MB of labels, "
          f"{len(listing) / 1e6:.1f} MB list, {len(firm) / 1e6:.1f} MB firm list: {took:.1f} s, {pages / took:,.0f} pages/s, "
          f"peak {peak_mb():.0f} MB (targets: < 60 s, < 1 GB)")  # fmt: skip

    # The baseline: every letter typeset on its own by WeasyPrint (timed on a sample, scaled).
    sample = people[: args.sample]
    start = time.perf_counter()
    base_pages = 0
    for r in sample:
        html = body_html.replace(
            '<div class="window-area"></div>',
            f'<div class="window-area"><p>{r.name}<br>{r.lines[0]}<br>{r.city} {r.state} {r.zip5}</p></div>',
        )
        base_pages += len(HTML(string=html).render().pages)
    per_page = (time.perf_counter() - start) / base_pages
    print(f"page by page through WeasyPrint: {1 / per_page:.1f} pages/s on {len(sample)} letters; "
          f"{per_page * pages / 60:.1f} min for the same mailing; variable data is {pages / took * per_page:.0f}× faster")  # fmt: skip


if __name__ == "__main__":
    main()
