import TableKit
import TablePages
import TableStore

/// The gallery's root: one row per picture in the database, read again when the page's change
/// feed says the database changed. Thumbnails do not go through the feed: each row's arrives
/// from its own background task through the table's updater (see ``GalleryRow``). Not a
/// `VersionedDataSource`: its rows show the thumbnails this instance has made so far, so two
/// instances at one database version can show different states.
final class GalleryRoot: CascadingRootTableDelegate, ReloadableDataSource {
    private let store: any SQLStore
    private let thumbnails: ThumbnailService
    private let pictures = StaticSection(id: "pictures", header: "Pictures", footer: "Thumbnails are made on the server and appear as they are ready.")

    init(store: any SQLStore, thumbnails: ThumbnailService) throws {
        self.store = store
        self.thumbnails = thumbnails
        super.init(childDelegates: [pictures])
        try showPictures()
    }

    private var rows: [GalleryRow] { pictures.childDelegates.compactMap { $0 as? GalleryRow } }

    func reloadFromSource() throws {
        try showPictures()
    }

    private func showPictures() throws {
        let images = try store.snapshot(GalleryImage.all)
        var existing: [Int64?: GalleryRow] = [:]
        for row in rows { existing[row.image.id] = row }
        pictures.childDelegates = images.map { image in
            guard let row = existing[image.id] else { return GalleryRow(image: image, thumbnails: thumbnails) }
            row.image = image
            return row
        }
    }
}
