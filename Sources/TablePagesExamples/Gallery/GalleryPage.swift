import TableKit
import TablePages
import TableStore

/// The gallery: served at once with estimated row heights; as each thumbnail is made on the
/// server, in a background task, its row is updated through the table's updater and pushed, with
/// its real height, to every open page.
enum GalleryPage {
    static func definition(store: any SQLStore, thumbnails: ThumbnailService, changes: ChangeFeed) -> PageDefinition {
        PageDefinition(
            name: "gallery", title: "Gallery", summary: "Thumbnails made asynchronously; rows grow to their real height.",
            // Nothing on it can be changed through the web, so nobody is asked to sign in.
            changes: changes, access: .everyoneReads
        ) { _ in
            try GalleryRoot(store: store, thumbnails: thumbnails)
        }
    }
}
