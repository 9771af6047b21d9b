// swift-tools-version:6.0
// Live fan-out benchmark: N Server-Sent Events subscribers on one page, one select, the time until
// each has the patch, and the server's memory per idle subscriber; with --writes/--action-port, a
// sequence of selects through another instance (Benchmarks/scaleout.sh). Its own package so the main
// build never compiles it; Benchmarks/fanout.sh builds it, starts a server and runs it:
//   swift build -c release --package-path Benchmarks/LiveFanout
//   Benchmarks/LiveFanout/.build/release/LiveFanout --port 8080 --pid "$(pgrep -n tablepages)"
import PackageDescription

let package = Package(
    name: "LiveFanout",
    targets: [
        // <sys/epoll.h>, which Swift's Glibc module leaves out.
        .systemLibrary(name: "CEpoll"),
        .executableTarget(name: "LiveFanout", dependencies: ["CEpoll"]),
    ],
    swiftLanguageModes: [.v6]
)
