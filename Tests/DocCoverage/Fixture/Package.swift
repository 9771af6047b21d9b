// swift-tools-version:6.0
// A package for testing scripts/check-doc-coverage: Shelf.swift documents some public
// declarations and leaves others undocumented, each on purpose (see test_check_doc_coverage.py).
import PackageDescription

let package = Package(
    name: "Shelf",
    products: [.library(name: "Shelf", targets: ["Shelf"])],
    targets: [.target(name: "Shelf")]
)
