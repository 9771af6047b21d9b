import TablePages

/// The row delegate of one gallery picture. Until its thumbnail is made the row only has an
/// estimated height; once the page reads the thumbnail, the row is sent again, with its real
/// height, to every open page.
final class GalleryRow: ObservedRow<GalleryImage> {
    /// The room a thumbnail's row needs besides the picture: caption and padding.
    static let captionHeight = 72.0
    /// What a row is assumed to need before its thumbnail's size is known.
    static let estimatedHeight = TableHeight.points(Double(Thumbnail.box.height) * 0.75 + captionHeight)

    /// The row id of a picture.
    static func id(of image: GalleryImage) -> RowID { RowID("image-\(image.id ?? 0)") }

    override func rowID(forRowAt indexPath: TableIndexPath) -> RowID { Self.id(of: item) }
    override func cell(forRowAt indexPath: TableIndexPath) -> TableCell { TableCell(.image, GalleryCell(picture: item, thumbnail: item.thumbnail)) }
    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool { false }

    override func heightForRow(at indexPath: TableIndexPath) -> TableHeight {
        item.thumbnail.map { .points(Double($0.size.height) + Self.captionHeight) } ?? .automatic
    }

    override func estimatedHeightForRow(at indexPath: TableIndexPath) -> TableHeight? {
        item.thumbnail == nil ? Self.estimatedHeight : nil
    }
}
