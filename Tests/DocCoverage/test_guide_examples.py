"""docs/guide.md quotes whole files of Tests/TablePagesTests/GuideExamples, which `swift test`
compiles and runs (GuideExamplesTests): each block that follows `<!-- Tests/… -->` must be that file,
byte for byte, and every file there is quoted, so the guide's example cannot fall behind the code."""
import glob
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FOLDER = "Tests/TablePagesTests/GuideExamples/"


def quoted_blocks(markdown):
    """[(path, code)] of the Swift blocks that follow an HTML comment naming a file of FOLDER."""
    return re.findall(r"<!-- (" + re.escape(FOLDER) + r"[^ ]+) -->\n```swift\n(.*?)```\n", markdown, re.S)


def test_the_guide_quotes_every_example_file_whole():
    with open(os.path.join(ROOT, "docs", "guide.md"), encoding="utf-8") as file:
        blocks = quoted_blocks(file.read())
    files = sorted(os.path.relpath(path, ROOT) for path in glob.glob(os.path.join(ROOT, FOLDER, "*.swift")))
    assert files, "no example files"
    assert sorted(path for path, _ in blocks) == files, "each example file is quoted once"
    for path, code in blocks:
        with open(os.path.join(ROOT, path), encoding="utf-8") as file:
            assert code == file.read(), f"docs/guide.md's block differs from {path}"


def test_a_difference_is_seen():
    markdown = f"<!-- {FOLDER}A.swift -->\n```swift\nlet a = 1\n```\n"
    assert quoted_blocks(markdown) == [(FOLDER + "A.swift", "let a = 1\n")]
    assert quoted_blocks(markdown.replace("1", "2")) != quoted_blocks(markdown)
