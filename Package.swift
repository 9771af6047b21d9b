// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "TablePages",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "tablepages", targets: ["tablepages"]),
        .library(name: "Escaping", targets: ["Escaping"]),
        .library(name: "MicroHTTP", targets: ["MicroHTTP"]),
        .library(name: "TableKit", targets: ["TableKit"]),
        .library(name: "TableStore", targets: ["TableStore"]),
        .library(name: "TableStorePostgres", targets: ["TableStorePostgres"]),
        .library(name: "TablePages", targets: ["TablePages"]),
        .library(name: "TablePagesDatabase", targets: ["TablePagesDatabase"]),
        .library(name: "TablePagesExamples", targets: ["TablePagesExamples"]),
        .library(name: "TablePagesPostgres", targets: ["TablePagesPostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // postgres-nio's own TLS library, named here because a connection's TLS settings are its types.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
        // The server, and a site, run as Services in a ServiceGroup, which handles SIGTERM and graceful
        // shutdown; postgres-nio's PostgresClient is built for the same group.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // HTML and JSON escaping, the one implementation MicroHTTP, TableKit and TablePages share.
        .target(name: "Escaping"),
        .target(
            name: "MicroHTTP",
            dependencies: [
                "CMicroHTTPD",
                "Escaping",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(name: "TableKit", dependencies: ["Escaping"]),
        .target(
            name: "TableStore",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // PostgreSQL through postgres-nio, for scale-out: its own target so that only what uses it links NIO.
        .target(
            name: "TableStorePostgres",
            dependencies: [
                "TableStore",
                // Exact percent-decoding of the URL's user, password and database.
                "Escaping",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                // The store is a Service: its pool runs in the site's ServiceGroup.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "TablePages",
            dependencies: [
                "Escaping",
                "MicroHTTP",
                "TableKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // HMAC-SHA256 signs session cookies; SHA-256 hashes the stored access tokens.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            plugins: ["EmbedPublicFiles"]
        ),
        // A SQLite database's tables as pages, and TableStore's glue to the service: a Store is a
        // ReadinessProbe, its errors answer clients (HTTPErrorConvertible, DatabaseWriteError).
        .target(
            name: "TablePagesDatabase",
            dependencies: [
                "TablePages",
                "MicroHTTP",
                "Escaping",
                "TableKit",
                "TableStore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // A PostgreSQL database's tables as pages, with TablePagesDatabase's query building: NIO stays
        // out of the core (TablePages) and out of the SQLite path.
        .target(
            name: "TablePagesPostgres",
            dependencies: [
                "TablePages",
                "TablePagesDatabase",
                "TableKit",
                "TableStore",
                // Its URL parsing and BlockingWait: one implementation for both PostgreSQL paths.
                "TableStorePostgres",
                "MicroHTTP",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // TablePagesDatabase: it makes the stores' errors answer clients (a busy database is 503), which the examples throw.
        // TableStorePostgres: `serve --postgres` keeps the examples' data in PostgreSQL.
        .target(name: "TablePagesExamples", dependencies: ["TablePages", "TablePagesDatabase", "MicroHTTP", "TableKit", "TableStore", "TableStorePostgres", .product(name: "GRDB", package: "GRDB.swift")], plugins: ["EmbedPublicFiles"]),
        // Compiles Public/ into TablePages (its assets) and TablePagesExamples (the pictures).
        .executableTarget(name: "PublicFilesEmbedder"),
        // README's example, `Examples/Bookshelf`, is a package of its own; its sources are compiled
        // here too, so that `make test` builds them beside the library instead of compiling every
        // dependency (two minutes and more of BoringSSL) again in the example's own build folder.
        // `make test` checks the example's manifest separately (`show-dependencies`).
        .executableTarget(
            name: "Bookshelf",
            dependencies: ["TablePages"],
            path: "Examples/Bookshelf/Sources/Bookshelf"
        ),
        // docs/guide.md's example, `Examples/ReadingList`, a package of its own too, compiled here likewise.
        .executableTarget(
            name: "ReadingList",
            dependencies: ["TablePages", "TablePagesDatabase"],
            path: "Examples/ReadingList/Sources/ReadingList"
        ),
        .plugin(name: "EmbedPublicFiles", capability: .buildTool(), dependencies: ["PublicFilesEmbedder"]),
        .executableTarget(
            name: "tablepages",
            dependencies: [
                "TablePages",
                "TablePagesDatabase",
                "TablePagesExamples",
                "TablePagesPostgres",
                "TableStore",
                "TableStorePostgres",
                "MicroHTTP",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(name: "HTTPTestSupport", dependencies: [.product(name: "Logging", package: "swift-log")], path: "Tests/HTTPTestSupport"),
        .target(name: "HostileTextSupport", dependencies: [.product(name: "PropertyBased", package: "swift-property-based")], path: "Tests/HostileTextSupport"),
        .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP", "HTTPTestSupport", "HostileTextSupport", .product(name: "PropertyBased", package: "swift-property-based"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        .testTarget(name: "TableKitTests", dependencies: ["TableKit", "Escaping", "HostileTextSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        // Imports Foundation and TableKit together, so a name clash between them fails the build.
        .testTarget(name: "FoundationInteropTests", dependencies: ["TableKit"]),
        .testTarget(name: "TableStorePostgresTests", dependencies: ["TableStorePostgres", "TableStore", "HTTPTestSupport", "HostileTextSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "TableStoreTests", dependencies: ["TableStore", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "TablePagesPostgresTests", dependencies: ["TablePagesPostgres", "TablePagesDatabase", "TablePages", "TableStore", "TableStorePostgres", "MicroHTTP", "HTTPTestSupport", "HostileTextSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        // The fixtures TablePages' tests share with the database's and the examples' (sites, pages,
        // databases, clocks); its tests import it @testable, as it imports TablePages.
        .target(
            name: "TablePagesTestSupport",
            dependencies: [
                "TablePages", "TablePagesDatabase", "TablePagesExamples", "TableKit", "MicroHTTP", "TableStore",
                "HTTPTestSupport", "HostileTextSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/TablePagesTestSupport"
        ),
        .testTarget(name: "EscapingTests", dependencies: ["Escaping", "HostileTextSupport", .product(name: "PropertyBased", package: "swift-property-based")]),
        // TablePages' own tests; some serve a database or the examples as the pages under test.
        .testTarget(name: "TablePagesTests", dependencies: ["TablePages", "TablePagesTestSupport", "TablePagesDatabase", "TablePagesExamples", "TableKit", "MicroHTTP", "TableStore", "HTTPTestSupport", "HostileTextSupport", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"), .product(name: "PropertyBased", package: "swift-property-based"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle")]),
        .testTarget(name: "TablePagesDatabaseTests", dependencies: ["TablePagesDatabase", "TablePagesTestSupport", "TablePages", "TableKit", "MicroHTTP", "TableStore", "Escaping", "HTTPTestSupport", "HostileTextSupport", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "Logging", package: "swift-log"), .product(name: "PropertyBased", package: "swift-property-based")]),
        .testTarget(name: "TablePagesExamplesTests", dependencies: ["TablePagesExamples", "TablePagesTestSupport", "TablePages", "TableKit", "TableStore", "HTTPTestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
    ],
    swiftLanguageModes: [.v6]
)
