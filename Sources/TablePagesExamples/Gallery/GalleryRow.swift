import TableKit

/// The row delegate of one gallery picture. Until its thumbnail is made the row only has an
/// estimated height; the thumbnail is made in a background task, which hands it to the row
/// through the table's ``/TableKit/TableUpdater``: the row is reloaded, with its real height, and
/// every open page gets the patch.
final class GalleryRow: CascadingBareTableDelegate {
    /// The room a thumbnail's row needs besides the picture: caption and padding.
    static let captionHeight = 72.0
    /// What a row is assumed to need before its thumbnail's size is known.
    static let estimatedHeight = TableHeight.points(Double(Thumbnail.box.height) * 0.75 + captionHeight)

    var image: GalleryImage
    private let thumbnails: ThumbnailService
    private var thumbnail: Thumbnail?
    private var isLoading = false

    init(image: GalleryImage, thumbnails: ThumbnailService) {
        self.image = image
        self.thumbnails = thumbnails
        thumbnail = thumbnails.thumbnail(for: image.file)
        super.init()
    }

    var id: RowID { Self.id(of: image) }

    /// The row id of a picture.
    static func id(of image: GalleryImage) -> RowID { RowID("image-\(image.id ?? 0)") }

    /// Starts making the thumbnail once the row is in a table, so the task has an updater to
    /// hand it to.
    override func prepare(table: any TableContext) {
        super.prepare(table: table)
        guard thumbnail == nil, !isLoading else { return }
        isLoading = true
        let (updater, thumbnails, file, id) = (table.updater, thumbnails, image.file, id)
        Task.detached {
            let made = await thumbnails.make(file)
            updater.updateRow(id, of: GalleryRow.self) { row in row.thumbnail = made }
        }
    }

    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { id }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(.image, GalleryCell(picture: image, thumbnail: thumbnail)) }
    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { false }

    override func heightForRow(at indexPath: TableIndexPath) -> TableHeight {
        thumbnail.map { .points(Double($0.size.height) + Self.captionHeight) } ?? .automatic
    }

    override func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? {
        thumbnail == nil ? Self.estimatedHeight : nil
    }
}
