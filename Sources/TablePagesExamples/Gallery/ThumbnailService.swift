import MicroHTTP
import Synchronization

/// Makes the gallery's thumbnails in the background, each with the delay real image work has,
/// and says when one is ready. Pages read finished thumbnails synchronously from their own
/// isolation; the work itself never runs there.
///
///     let thumbnails = ThumbnailService(pictures: ExamplePages.publicFiles, folder: "images/gallery/") { feed.notify() }
///     thumbnails.prepare(["alpine-lake.svg"])
///     thumbnails.thumbnail(for: "alpine-lake.svg") // nil, then a Thumbnail about a second later
final class ThumbnailService: Sendable {
    private struct State {
        var started: Set<String> = []
        var ready: [String: Thumbnail] = [:]
    }

    private let pictures: BuiltInFiles
    private let folder: String
    private let onReady: @Sendable () -> Void
    private let state = Mutex(State())

    /// - Parameters:
    ///   - pictures: the public files the pictures are among (built in, so no disk is read).
    ///   - folder: the pictures' folder in `pictures`, ending in `/`; the browser loads them from
    ///     the same folder under `/public/`.
    ///   - onReady: called, on any thread, after each thumbnail is ready.
    init(pictures: BuiltInFiles, folder: String, onReady: @escaping @Sendable () -> Void) {
        self.pictures = pictures
        self.folder = folder
        self.onReady = onReady
    }

    /// The finished thumbnail of `file`, or nil while it is not ready.
    func thumbnail(for file: String) -> Thumbnail? {
        state.withLock { $0.ready[file] }
    }

    /// Starts making the thumbnails of `files` not already started; returns at once.
    func prepare(_ files: [String]) {
        let fresh = state.withLock { state in files.filter { state.started.insert($0).inserted } }
        for (order, file) in fresh.enumerated() {
            Task.detached { [self] in
                try? await Task.sleep(for: Self.delay(forJob: order))
                let thumbnail = make(file)
                state.withLock { $0.ready[file] = thumbnail }
                onReady()
            }
        }
    }

    /// Between 200 and 1500 ms, scattered so that thumbnails finish one by one, out of order.
    static func delay(forJob order: Int) -> Duration {
        .milliseconds(200 + (order * 347) % 1300)
    }

    private func make(_ file: String) -> Thumbnail {
        let svg = pictures[folder + file].map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Thumbnail.fitting(svg: svg, url: "/public/" + folder + file)
    }
}
