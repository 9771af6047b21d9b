/// An image shown in a cell, with its size when known so the browser can reserve space.
///
///     CellImage(url: "/public/pets/rex.jpg", alt: "Rex", size: .init(width: 64, height: 64))
public struct CellImage: Hashable, Sendable {
    /// A known image size in CSS pixels.
    public struct Size: Hashable, Sendable {
        /// The width in CSS pixels.
        public var width: Int
        /// The height in CSS pixels.
        public var height: Int

        /// Creates a size.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The image address. Only `http:`, `https:` and scheme-less addresses are rendered into HTML.
    public var url: String
    /// The text alternative for people who cannot see the image; empty for decorative images.
    public var alt: String
    /// The image's size, or nil when unknown.
    public var size: Size?

    /// Creates an image reference.
    public init(url: String, alt: String = "", size: Size? = nil) {
        self.url = url
        self.alt = alt
        self.size = size
    }
}
