import Foundation
import Synchronization

/// Makes the gallery's thumbnails in the background, each with the delay real image work has,
/// and says when one is ready. Pages read finished thumbnails synchronously from their own
/// isolation; the work itself never runs there.
///
///     let thumbnails = ThumbnailService(directory: "Public/images/gallery", urlPrefix: "/public/images/gallery/") { feed.notify() }
///     thumbnails.prepare(["alpine-lake.svg"])
///     thumbnails.thumbnail(for: "alpine-lake.svg") // nil, then a Thumbnail about a second later
final class ThumbnailService: Sendable {
    private struct State {
        var started: Set<String> = []
        var ready: [String: Thumbnail] = [:]
    }

    private let directory: String
    private let urlPrefix: String
    private let onReady: @Sendable () -> Void
    private let state = Mutex(State())

    /// - Parameters:
    ///   - directory: where the pictures are read from.
    ///   - urlPrefix: where the browser loads them from.
    ///   - onReady: called, on any thread, after each thumbnail is ready.
    init(directory: String, urlPrefix: String, onReady: @escaping @Sendable () -> Void) {
        self.directory = directory
        self.urlPrefix = urlPrefix
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
        let svg = (try? String(contentsOfFile: directory + "/" + file, encoding: .utf8)) ?? ""
        return Thumbnail.fitting(svg: svg, url: urlPrefix + file)
    }
}
