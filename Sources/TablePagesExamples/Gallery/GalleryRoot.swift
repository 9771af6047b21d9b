import TablePages
import TablePagesDatabase

/// The gallery's root: one row per picture in the database, each with the thumbnail this instance
/// has made of it so far. A thumbnail is made in the background; the service announces it on its
/// feed, given as the source's `local` feed, and the page reads again. Since the rows show what
/// this instance made, two instances at one database version can show different states: the page
/// numbers its states itself.
final class GalleryRoot: ObservedSource<[GalleryImage]> {
    private let thumbnails: ThumbnailService
    private let pictures: ObservedSection<GalleryImage>

    init(data: ExampleData, thumbnails: ThumbnailService) {
        self.thumbnails = thumbnails
        pictures = ObservedSection(id: "pictures", header: "Pictures", footer: "Thumbnails are made on the server and appear as they are ready.") { image in
            GalleryRow(item: image)
        }
        super.init(data, fetch: { db in
            try GalleryImage.all(db).map { image in
                var image = image
                image.thumbnail = thumbnails.thumbnail(for: image.file)
                return image
            }
        }, sections: [pictures])
        local = thumbnails.changes
    }

    override func show(_ images: [GalleryImage]) {
        pictures.show(images)
        for image in images where image.thumbnail == nil {
            thumbnails.startMaking(image.file)
        }
    }
}
