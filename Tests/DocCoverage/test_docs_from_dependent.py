"""README's "The API reference" stays in the form scripts/check-docs-from-dependent runs (CI builds
the reference with it, `make docs-from-dependent`): a manifest with the DocC plugin beside
TablePages, a generate command for a TablePages product, and a server command with its URL."""
import importlib.machinery
import importlib.util
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def checker():
    path = os.path.join(ROOT, "scripts", "check-docs-from-dependent")
    loader = importlib.machinery.SourceFileLoader("check_docs_from_dependent", path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_readme_section_is_what_the_ci_step_runs():
    module = checker()
    dependencies, generate, serve, port, path = module.commands(module.readme_section())
    assert '.package(path: "../TablePages")' in dependencies
    assert '.package(url: "https://github.com/swiftlang/swift-docc-plugin"' in dependencies
    assert generate.startswith("swift package ") and "--product TablePages" in generate and "--output-path " in generate
    assert serve.startswith("python3 -m http.server") and port in serve.split()
    assert path == "/documentation/tablepages/"
