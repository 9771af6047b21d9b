import TableKit

/// Adapts a gallery picture to the image cell: the thumbnail once it is ready, a note until then.
struct GalleryCell: CellDataProvider {
    let picture: GalleryImage
    let thumbnail: Thumbnail?

    var title: String? { picture.title }
    var subtitle: String? { thumbnail == nil ? "Making the thumbnail…" : "by \(picture.photographer)" }
    var image: CellImage? {
        thumbnail.map { CellImage(url: $0.url, alt: picture.title, size: $0.size) }
    }
}
