import TableKit
import TablePages
import TableStore

/// The gallery: served at once with estimated row heights; as each thumbnail is made on the
/// server its row is pushed, with its real height, to every open page.
enum GalleryPage {
    static func definition(store: Store, thumbnails: ThumbnailService, changes: ChangeFeed) -> PageDefinition {
        PageDefinition(name: "gallery", title: "Gallery", summary: "Thumbnails made asynchronously; rows grow to their real height.", changes: changes) { variant in
            ExampleTable.make(root: try GalleryRoot(store: store, thumbnails: thumbnails), title: "Gallery", variant: variant)
        }
    }
}
