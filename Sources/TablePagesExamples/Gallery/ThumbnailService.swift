import Synchronization
import TablePages

/// Makes the gallery's thumbnails, each with the delay real image work has, and keeps the ones it
/// made, announcing each on ``changes``. Pages read finished thumbnails synchronously; the work
/// itself runs in a background task.
///
///     let thumbnails = ThumbnailService(pictures: ExamplePages.publicFiles, folder: "images/gallery/")
///     thumbnails.thumbnail(for: "alpine-lake.svg")        // nil: not made yet
///     let made = await thumbnails.make("alpine-lake.svg") // about a second later
final class ThumbnailService: Sendable {
    private struct State {
        var started = 0
        var making: Set<String> = []
        var ready: [String: Thumbnail] = [:]
    }

    /// Announces each thumbnail made.
    let changes = ChangeFeed()

    private let pictures: BuiltInFiles
    private let folder: String
    private let state = Mutex(State())

    /// - Parameters:
    ///   - pictures: the public files the pictures are among (built in, so no disk is read).
    ///   - folder: the pictures' folder in `pictures`, ending in `/`; the browser loads them from
    ///     the same folder under `/public/`.
    init(pictures: BuiltInFiles, folder: String) {
        self.pictures = pictures
        self.folder = folder
    }

    /// The finished thumbnail of `file`, or nil while it is not made.
    func thumbnail(for file: String) -> Thumbnail? {
        state.withLock { $0.ready[file] }
    }

    /// Starts making the thumbnail of `file` in a background task, unless it is made or being made.
    func startMaking(_ file: String) {
        let start = state.withLock { state in
            guard state.ready[file] == nil, !state.making.contains(file) else { return false }
            state.making.insert(file)
            return true
        }
        guard start else { return }
        Task.detached { [self] in _ = await make(file) }
    }

    /// The thumbnail of `file`: the one made before, or a new one after a delay that scatters
    /// jobs so that they finish one by one, out of order.
    func make(_ file: String) async -> Thumbnail {
        let order: Int? = state.withLock { state in
            guard state.ready[file] == nil else { return nil }
            defer { state.started += 1 }
            return state.started
        }
        if let order {
            try? await Task.sleep(for: Self.delay(forJob: order))
        }
        let thumbnail = thumbnail(for: file) ?? scaled(file)
        let isNew = state.withLock { state in
            state.making.remove(file)
            return state.ready.updateValue(thumbnail, forKey: file) == nil
        }
        if isNew { changes.notify() }
        return thumbnail
    }

    /// Between 200 and 1500 ms, scattered so that thumbnails finish one by one, out of order.
    static func delay(forJob order: Int) -> Duration {
        .milliseconds(200 + (order * 347) % 1300)
    }

    private func scaled(_ file: String) -> Thumbnail {
        let svg = pictures[folder + file].map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Thumbnail.fitting(svg: svg, url: "/public/" + folder + file)
    }
}
