import GRDB

/// A picture of the gallery; `file` names an SVG under `Public/images/gallery/`.
struct GalleryImage: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "galleryImage"

    var id: Int64?
    var title: String
    var file: String
    var photographer: String

    /// Every picture, in the order they were added.
    static func all(_ db: Database) throws -> [GalleryImage] {
        try GalleryImage.order(Column("id")).fetchAll(db)
    }
}
