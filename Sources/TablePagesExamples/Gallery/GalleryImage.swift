import TableStore

/// A picture of the gallery; `file` names an SVG under `Public/images/gallery/`.
struct GalleryImage: Hashable, Sendable {
    var id: Int64?
    var title: String
    var file: String
    var photographer: String

    /// Every picture, in the order they were added.
    static func all(_ db: any SQLSession) throws -> [GalleryImage] {
        try db.rows("SELECT id, title, file, photographer FROM galleryImage ORDER BY id").map { row in
            GalleryImage(id: try row.int64(0), title: try row.string(1), file: try row.string(2), photographer: try row.string(3))
        }
    }
}
