import TablePages
import TablePagesDatabase

/// The gallery: served at once with estimated row heights; as each thumbnail is made on the
/// server, in a background task, the page reads it and pushes its row, with its real height, to
/// every open page.
enum GalleryPage {
    static func definition(data: ExampleData, thumbnails: ThumbnailService) -> PageDefinition {
        PageDefinition(
            name: "gallery", title: "Gallery", summary: "Thumbnails made asynchronously; rows grow to their real height.",
            // Nothing on it can be changed through the web, so nobody is asked to sign in.
            access: .everyoneReads
        ) { _ in
            GalleryRoot(data: data, thumbnails: thumbnails)
        }
    }
}
