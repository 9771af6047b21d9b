import TableStore

/// A picture of the gallery; `file` names an SVG under `Public/images/gallery/`.
struct GalleryImage: Identifiable, Hashable, Sendable {
    var id: Int64?
    var title: String
    var file: String
    var photographer: String
    /// The picture's thumbnail when this instance has made it; not stored.
    var thumbnail: Thumbnail?

    init(id: Int64?, title: String, file: String, photographer: String, thumbnail: Thumbnail? = nil) {
        (self.id, self.title, self.file, self.photographer, self.thumbnail) = (id, title, file, photographer, thumbnail)
    }

    /// Every picture, in the order they were added.
    static func all(_ db: any SQLSession) throws -> [GalleryImage] {
        try db.rows("SELECT id, title, file, photographer FROM galleryImage ORDER BY id").map { row in
            GalleryImage(id: try row.int64(0), title: try row.string(1), file: try row.string(2), photographer: try row.string(3))
        }
    }
}
