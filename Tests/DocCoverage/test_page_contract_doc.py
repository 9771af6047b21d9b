"""docs/page-contract.md, the page's DOM and CSS contract, names every `tk-*` class that the
stylesheet, the page script or a renderer (Swift) uses, every `--tk-*` custom property, the
`tp-*` classes the script relies on, the DOM ids, the `data-` attributes and the names of the
script's form contract; and it names none that nothing uses any more."""
import glob
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DOC = "docs/page-contract.md"
CSS = "Public/table-pages.css"
SCRIPTS = ["Public/table-pages.js", "Public/table-pages-live.js"]
# The modules whose Swift writes a page's HTML (TablePagesPostgres and the command write none).
RENDERERS = ["TableKit", "TablePages", "TablePagesDatabase", "TablePagesExamples"]

NAME = r"[a-z0-9]+(?:-[a-z0-9]+)*"


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        return file.read()


def swift_sources(modules=RENDERERS):
    for module in modules:
        for path in sorted(glob.glob(os.path.join(ROOT, "Sources", module, "**", "*.swift"), recursive=True)):
            with open(path, encoding="utf-8") as file:
                yield file.read()


def string_literals(swift):
    """The text of the string literals of `swift` (one-line ones: the HTML is written in those)."""
    return re.findall(r'"((?:[^"\\\n]|\\.)*)"', swift)


def documented(doc):
    """Every name the doc writes in code voice."""
    return set(re.findall(r"`([^`\n]+)`", doc))


def table_entries(doc):
    """The names in the first column of the doc's tables: a class is documented by a row of its own."""
    return set(re.findall(r"^\| `([^`\n]+)` \|", doc, re.M))


def classes_in_css(css):
    return set(re.findall(rf"\.(tk-{NAME})", css))


def classes_in_script(script):
    """`tk-*` names in the script that are classes: not a custom property (`--tk-…`), not an id
    prefix (`tk-form-error-`)."""
    return set(re.findall(rf"(?<![-\w])(tk-{NAME})(?![-\w])", script))


def classes_in_swift(swift):
    found = set()
    for literal in string_literals(swift):
        found |= set(re.findall(rf"(?<![-\w])(tk-{NAME})(?![-\w])", literal))
    return found


def custom_properties(text):
    return set(re.findall(rf"(--tk-{NAME})", text))


def data_attributes_in_script(script):
    kebab = {"data-" + re.sub(r"[A-Z]", lambda m: "-" + m.group(0).lower(), name) for name in re.findall(r"dataset\.(\w+)", script)}
    return kebab | set(re.findall(rf"(?<![-\w])(data-{NAME})", script))


def data_attributes_in_swift(swift):
    found = set()
    for literal in string_literals(swift):
        found |= set(re.findall(rf"(?<![-\w])(data-{NAME})(?=[=>\s\\]|$)", literal))
    return found


def test_every_class_is_documented_and_every_documented_class_exists():
    scripts = "\n".join(read(path) for path in SCRIPTS)
    css = read(CSS)
    swift = "\n".join(swift_sources())
    used = classes_in_css(css) | classes_in_script(scripts) | classes_in_swift(swift)
    names = {name for name in table_entries(read(DOC)) if re.fullmatch(rf"tk-{NAME}", name)}
    relied = classes_in_css(css) | classes_in_script(scripts)
    assert len(relied) > 60, sorted(relied)
    assert relied - names == set(), "classes the stylesheet or script rely on, missing from " + DOC
    assert used - names == set(), "classes the renderers write, missing from " + DOC
    assert names - used == set(), DOC + " names classes nothing uses any more"


def test_the_script_s_page_classes_custom_properties_and_attributes_are_documented():
    scripts = "\n".join(read(path) for path in SCRIPTS)
    css = read(CSS)
    swift = "\n".join(swift_sources())
    names = documented(read(DOC))
    entries = table_entries(read(DOC))
    page_classes = set(re.findall(rf"(?<![-\w])(tp-{NAME})(?![-\w])", scripts))
    assert page_classes and page_classes <= entries
    assert {name for name in entries if name.startswith("tp-") and "{" not in name} <= page_classes, "tp- classes the script does not use"
    properties = custom_properties(css) | custom_properties(scripts)
    assert properties == {name for name in entries if name.startswith("--tk-")}
    attributes = data_attributes_in_script(scripts) | data_attributes_in_swift(swift)
    assert {"data-row", "data-section", "data-version", "data-events"} <= attributes
    assert attributes - names == set(), "data- attributes missing from " + DOC
    assert {name for name in names if re.fullmatch(rf"data-{NAME}", name)} - attributes == set(), "data- attributes nothing uses"


def test_dom_ids_are_documented():
    scripts = "\n".join(read(path) for path in SCRIPTS)
    names = documented(read(DOC))
    fixed = set(re.findall(r'getElementById\("([\w-]+)"\)', scripts))
    # The table's own ids: TableKit writes the table; the pages around it (the SQL page's form) have others.
    table = "\n".join(swift_sources(["TableKit"]))
    fixed |= {name for literal in string_literals(table) for name in re.findall(r'\bid=\\"([a-z-]+)\\"', literal)}
    prefixes = set(re.findall(r'domID\("([\w-]+)"', scripts)) | set(re.findall(r"\.id = `([\w-]+)\$\{", scripts))
    prefixes |= {name for literal in string_literals(table) for name in re.findall(r'\bid=\\"([a-z-]+-)$', literal)}
    assert {"table", "table-header"} <= fixed and {"row-", "section-", "tk-form-error-"} <= prefixes
    assert fixed <= table_entries(read(DOC))
    for prefix in prefixes:
        assert any(name.startswith(prefix) and "{" in name for name in table_entries(read(DOC))), prefix


def test_the_form_contract_s_names_are_the_code_s():
    scripts = "\n".join(read(path) for path in SCRIPTS)
    fields = read("Sources/TableKit/Rendering/PageContract+Fields.swift")
    names = documented(read(DOC))
    for name in ["X-CSRF-Token", "csrf-token", "TablePages-Field"]:
        assert name in scripts and name in names, name
    for name in ["_csrf", "_method"]:
        assert f'"{name}"' in fields and name in names, name
    assert 'error?.message' in scripts and "error.message" in names
    assert "answer?.location" in scripts and "location" in names


def test_the_extractors_see_what_they_should():
    """The checks above can fail: the extractors find classes in each kind of source, and tell a
    custom property or an id prefix from a class."""
    assert classes_in_css(".tk-row > .tk-cell, a.tk-key:hover { }") == {"tk-row", "tk-cell", "tk-key"}
    assert classes_in_script('x.className = "tk-gap"; y.id = `tk-form-error-${n}`; z.setProperty("--tk-db-columns")') == {"tk-gap"}
    assert classes_in_swift('out.append("<span class=\\"tk-accessory tk-checkmark\\">") // tk-comment') == {"tk-accessory", "tk-checkmark"}
    assert data_attributes_in_script("a.dataset.rowCount; b.querySelector('[data-height]')") == {"data-row-count", "data-height"}
    assert data_attributes_in_swift('out.append("\\" data-remaining=\\""); // the data-source half') == {"data-remaining"}
    assert documented("| `tk-row` | a `data-row` |") == {"tk-row", "data-row"}
    assert table_entries("| `tk-row` | a `tk-cell` |\nsee `tk-gap`") == {"tk-row"}
