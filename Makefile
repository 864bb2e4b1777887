# The two set-up commands of the README: `make demo` builds the sample packets, `make test` runs
# the tests. Both create the virtual environment and install what WeasyPrint needs first.
VENV    ?= .venv
PYTHON  ?= python3
BIN      = $(VENV)/bin
# Debian packages WeasyPrint needs; libharfbuzz-subset0 saves ~0.5 s per PDF (font subsetting).
# poppler-utils: pdftoppm, to look at what a build makes (pdftoppm -r 50 -png).
DEBS     = libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core fonts-dejavu-extra poppler-utils
# The browser tests (tests/web/) and `make screenshots` drive Debian's Chromium through Playwright's
# driver (in its wheel): no browser download, no chromedriver. They build a packet through the page,
# so they are slow tests: the default run does not need the browser, CI (SLOW=1) installs it.
BROWSER_DEBS = chromium
# The tests run on every core, a test file per worker (module fixtures build their packets once).
PYTEST_ARGS ?= -n auto --dist loadfile
ifeq ($(SLOW),1)
PYTEST_ARGS += --slow
# The slow tests open every Word draft in LibreOffice, as an editor would, and read parcels from
# a throwaway PostgreSQL + PostGIS cluster (tests/postgis.py) as from a county's database.
# The browser tests drive headless Chromium over the real server (tests/web/).
DEBS += libreoffice-writer-nogui postgresql-15 postgresql-15-postgis-3 $(BROWSER_DEBS)
endif

.PHONY: demo test fuzz setup system-deps lint goldens docx-templates docs bench quality clean sample-data review readme-pages screenshots

demo: setup sample-data
	$(BIN)/notices build cases/*.yaml

# Build the samples, audit every PDF as printed (tools/audit: placeholders, doubled punctuation,
# hearings already past, the envelope window, sign capitals, overlaps) and put page 1 of each
# document with its findings in output/review/index.html. Exit 1 of the build (a packet written
# but not ready) still audits; the audit's own exit says whether it found anything.
review: setup sample-data
	$(BIN)/notices build cases/*.yaml || [ $$? -eq 1 ]
	$(BIN)/python -m tools.audit output --review output/review

# The README's picture of each kind of document (docs/pages/), from freshly built samples.
readme-pages: setup sample-data
	$(BIN)/notices build cases/*.yaml || [ $$? -eq 1 ]
	$(BIN)/notices build --agenda agendas/*.yaml || [ $$? -eq 1 ]
	$(BIN)/python -m tools.audit.pages output

# The README's pictures of the web page (docs/screens/: form, review, schedule), taken in headless
# Chromium over the real server by the browser tests' harness; `make test SLOW=1` puts a picture of
# every page in output/review/web/.
screenshots: DEBS += $(BROWSER_DEBS)
screenshots: setup sample-data
	$(BIN)/python -m tools.screenshots

# The sample cases read generated towns (parcels, zoning, streets...) from data/gis/.
sample-data: setup
	$(BIN)/python -m tools.sample_town data/gis

test: setup lint
	$(BIN)/pytest $(PYTEST_ARGS)

# The fuzz target at its large budget: FUZZ_EXAMPLES mutants of each sample case (hostile text,
# wrong types, odd numbers and dates, damaged YAML bytes) through the real build (tests/fuzzing.py).
# `make test` runs the same test at a small fixed budget. Memory is capped so that a runaway
# input fails the run instead of the machine; what failed is kept in .hypothesis/ and tried
# first next time.
FUZZ_EXAMPLES ?= 50
fuzz: setup sample-data
	ulimit -v 6000000 && NOTICES_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest tests/test_fuzz.py \
	  -k mutated_sample -p no:xdist -q --hypothesis-show-statistics

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

setup: system-deps $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

system-deps:
	@missing=""; for p in $(DEBS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if ! command -v apt-get >/dev/null 2>&1; then \
	  echo "note: not a Debian system; install Pango, HarfBuzz-subset and DejaVu fonts yourself"; \
	elif [ "$$(id -u)" = 0 ]; then \
	  echo "installing Debian packages:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	elif command -v sudo >/dev/null 2>&1; then \
	  sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else echo "warning: missing Debian packages:$$missing (apt-get install them as root)"; fi

goldens: setup
	$(BIN)/pytest tests/test_packets.py --update-goldens -q

docx-templates: setup
	$(BIN)/python templates/build_docx_templates.py
	$(BIN)/python templates/build_proof_templates.py

# The findings and documents references are generated from their registries; a test keeps them current.
docs: setup
	$(BIN)/python -c "from generator.findings import reference; open('docs/findings.md', 'w').write(reference())"
	$(BIN)/python -c "from generator.documents.registry import reference; open('docs/documents.md', 'w').write(reference())"

# Every bench of bench/, one after another, into one table: docs/bench.md (bench/table.py).
# `make bench TINY=1` runs each at the tests' tiny size and writes nothing (a quick check);
# `make bench ONLY="lint mailing"` re-runs those and keeps the other benches' rows.
# bench/recipients.py reads its 1,000,000 parcels from PostGIS too (a throwaway cluster).
bench: DEBS += postgresql-15 postgresql-15-postgis-3
bench: setup sample-data
	$(BIN)/python bench/table.py $(if $(TINY),--tiny) $(if $(ONLY),--only $(ONLY))

# How right the linter is on the corpus of real published notices (tests/corpus/): precision,
# recall, the confusion tables per state and per clause topic, and every disagreement with the
# reason the corpus file gives. It measures and exits 0; the issue's target is 0.95 each.
quality: setup
	$(BIN)/python bench/lint_quality.py

clean:
	rm -rf output/* $(VENV)
