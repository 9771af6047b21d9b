import TableKit
import TablePages
import TableStore

/// The gallery's root. Its page's change feed fires when a thumbnail is ready (and when the
/// pictures change in the database); each refresh lets every row pick up its ready thumbnail,
/// inside one batch, so thumbnails that finished together arrive as one patch.
final class GalleryRoot: CascadingRootTableDelegate, ReloadableDataSource {
    private let store: Store
    private let thumbnails: ThumbnailService
    private let pictures = StaticSection(id: "pictures", header: "Pictures", footer: "Thumbnails are made on the server and appear as they are ready.")

    init(store: Store, thumbnails: ThumbnailService) throws {
        self.store = store
        self.thumbnails = thumbnails
        super.init(childDelegates: [pictures])
        try showPictures()
    }

    private var rows: [GalleryRow] { pictures.childDelegates.compactMap { $0 as? GalleryRow } }

    func reloadFromSource() throws {
        // Rows the table already shows report their own change; rows added below are read whole.
        try tableContext?.performBatchUpdates {
            for row in rows { row.takeReadyThumbnail() }
        }
        try showPictures()
    }

    private func showPictures() throws {
        let images = try store.read(GalleryImage.all)
        thumbnails.prepare(images.map(\.file))
        var existing: [Int64?: GalleryRow] = [:]
        for row in rows { existing[row.image.id] = row }
        pictures.childDelegates = images.map { image in
            guard let row = existing[image.id] else { return GalleryRow(image: image, thumbnails: thumbnails) }
            row.image = image
            return row
        }
    }
}
