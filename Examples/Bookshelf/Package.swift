// swift-tools-version:6.0
import Foundation
import PackageDescription

// A path dependency's package identity is the last component of its path: the folder the
// TablePages checkout happens to be in (`TablePages`, `main`, `check`…), not the name in its
// manifest. Your own package writes that folder's name, e.g. `package: "TablePages"`; this example
// lives inside the checkout, so it reads the name off the folder two levels up instead.
let checkout = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "Bookshelf",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Bookshelf",
            dependencies: [
                .product(name: "TablePages", package: checkout),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
