"""README's "The products" lists every product of Package.swift, each once and with what it is for,
and names no product the manifest does not have: a product added, renamed or removed without README
fails here."""
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def manifest_products(text):
    """The names of the products in Package.swift's `products: [...]` list."""
    block = re.search(r"\bproducts:\s*\[(.*?)\n\s*\],", text, re.S)
    assert block, "Package.swift has no products list"
    return re.findall(r"\.(?:library|executable|plugin)\(\s*name:\s*\"([^\"]+)\"", block.group(1))


def readme_products(text):
    """[(name, purpose)] of the table under README's `### The products`."""
    section = re.search(r"^### The products\n(.*?)(?=^#)", text, re.S | re.M)
    assert section, "README has no \"### The products\" section"
    return re.findall(r"^\| `([^`]+)` \| (.*?) \|$", section.group(1), re.M)


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as file:
        return file.read()


def test_readme_lists_every_product_of_the_manifest():
    products = manifest_products(read("Package.swift"))
    listed = readme_products(read("README.md"))
    names = [name for name, _ in listed]
    assert len(products) >= 10, products
    assert sorted(names) == sorted(set(names)), "a product is listed twice"
    assert set(names) == set(products), f"missing from README: {set(products) - set(names)}; not products: {set(names) - set(products)}"
    for name, purpose in listed:
        assert len(purpose.split()) >= 5, f"{name}: say what it is for"


def test_the_parsers_see_a_difference():
    """The checks above can fail: a manifest with a product README lacks, and a README row for a
    product that is gone, are both told apart."""
    manifest = 'products: [\n        .library(name: "A", targets: ["A"]),\n        .executable(name: "b", targets: ["b"]),\n    ],'
    assert manifest_products(manifest) == ["A", "b"]
    readme = "### The products\n\n| Product | What |\n| --- | --- |\n| `A` | one two three four five |\n| `Gone` | x |\n\n## Next\n"
    assert readme_products(readme) == [("A", "one two three four five"), ("Gone", "x")]
