"""Tests scripts/check-doc-coverage against Fixture/, a package whose undocumented public
declarations are known: the checker must name each of them, nothing else, and fail; once they
are documented it must pass."""
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "..", "..", "scripts", "check-doc-coverage")

UNDOCUMENTED = {
    "func Shelf.undocumentedMethod()",
    "func SortedShelf.add(_:)",  # an override inherits its base's summary, but has none of its own
    "struct UndocumentedType",
    "case Room.kitchen",
    "var Room.isQuiet",  # public through `public extension`, without its own `public`
    "var String.undocumentedExtensionOnStandardType",
    "func Reader.read(_:)",
}


def check(package):
    result = subprocess.run(
        [CHECKER, "--package-path", package, "--scratch-path", os.path.join(package, ".build")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600,
    )
    return result.returncode, result.stdout


def reported(output):
    """The declarations named in the checker's `path:line: Module: kind name has no /// summary` lines."""
    names = set()
    for line in output.splitlines():
        if line.endswith(" has no /// summary"):
            declaration = line.split(": ", 2)[2]
            names.add(declaration[: -len(" has no /// summary")])
    return names


def test_undocumented_public_declarations_fail_the_check_and_are_each_named(tmp_path):
    package = shutil.copytree(os.path.join(HERE, "Fixture"), tmp_path / "Fixture", ignore=shutil.ignore_patterns(".build"))
    status, output = check(str(package))
    assert status == 1, output
    assert reported(output) == UNDOCUMENTED, output
    assert "Sources/Shelf/Shelf.swift:17: Shelf: func Shelf.undocumentedMethod() has no /// summary" in output
    assert "7 public declarations without a /// summary in Shelf" in output

    # Documenting every one of them makes the same package pass.
    source = package / "Sources" / "Shelf" / "Shelf.swift"
    text = source.read_text()
    for declaration in [
        "    public func undocumentedMethod() {}",
        "    public override func add(",
        "public struct UndocumentedType {}",
        "    case kitchen",
        "    var isQuiet: Bool",
        "    public var undocumentedExtensionOnStandardType",
        "    func read(_ shelf: Shelf)",
    ]:
        assert text.count(declaration) == 1, declaration
        indent = declaration[: len(declaration) - len(declaration.lstrip())]
        text = text.replace(declaration, indent + "/// Documented now.\n" + declaration)
    source.write_text(text)
    status, output = check(str(package))
    assert status == 0, output
    assert reported(output) == set(), output
    assert "every public declaration of Shelf has a /// summary" in output
