import TableKit

/// The row delegate of one gallery picture. Until its thumbnail is ready the row only has an
/// estimated height; when it is, the row brackets the change with `cellWillBeginUpdate` /
/// `cellDidEndUpdate`, and its parents turn that into a reload with the real height.
final class GalleryRow: CascadingBareTableDelegate {
    /// The room a thumbnail's row needs besides the picture: caption and padding.
    static let captionHeight = 72.0
    /// What a row is assumed to need before its thumbnail's size is known.
    static let estimatedHeight = TableHeight.points(Double(Thumbnail.box.height) * 0.75 + captionHeight)

    var image: GalleryImage
    private let thumbnails: ThumbnailService
    private var thumbnail: Thumbnail?

    init(image: GalleryImage, thumbnails: ThumbnailService) {
        self.image = image
        self.thumbnails = thumbnails
        thumbnail = thumbnails.thumbnail(for: image.file)
        super.init()
    }

    var id: RowID { RowID("image-\(image.id ?? 0)") }

    /// Shows the thumbnail if it became ready since the row last looked.
    func takeReadyThumbnail() {
        guard thumbnail == nil, let ready = thumbnails.thumbnail(for: image.file) else { return }
        cellWillBeginUpdate(id)
        thumbnail = ready
        cellDidEndUpdate(id)
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
