// swift-tools-version:6.0
// Render benchmark for TableKit, in its own package so the main build never compiles it:
//   swift run -c release --package-path Benchmarks/RenderBenchmark
import PackageDescription

let package = Package(
    name: "RenderBenchmark",
    dependencies: [.package(name: "TablePages", path: "../..")],
    targets: [
        .executableTarget(
            name: "RenderBenchmark",
            dependencies: [.product(name: "TableKit", package: "TablePages")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
