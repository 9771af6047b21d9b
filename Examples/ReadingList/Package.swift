// swift-tools-version:6.0
import Foundation
import PackageDescription

// As in Examples/Bookshelf: the checkout's folder name is its package identity, read off the folder
// two levels up, since this example lives inside the checkout. Your own package writes it, e.g.
// `package: "TablePages"`.
let checkout = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "ReadingList",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "ReadingList",
            dependencies: [
                .product(name: "TablePages", package: checkout),           // pages, delegates and cells, the HTTP server
                .product(name: "TablePagesDatabase", package: checkout),   // a SQLite file as a store pages observe
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
