import TableKit

/// A gallery picture scaled to fit the thumbnail box, with its real size in CSS pixels.
struct Thumbnail: Hashable, Sendable {
    /// The largest thumbnail.
    static let box = CellImage.Size(width: 320, height: 240)

    let url: String
    let size: CellImage.Size

    /// The thumbnail of an SVG picture: the picture is vector art, so scaling it is lossless and
    /// the work is finding its size and fitting that into ``box``.
    static func fitting(svg: String, url: String) -> Thumbnail {
        let original = intrinsicSize(ofSVG: svg) ?? CellImage.Size(width: 4, height: 3)
        let scale = min(Double(box.width) / Double(original.width), Double(box.height) / Double(original.height))
        let size = CellImage.Size(width: max(1, Int((Double(original.width) * scale).rounded())),
                                  height: max(1, Int((Double(original.height) * scale).rounded())))
        return Thumbnail(url: url, size: size)
    }

    /// The `width` and `height` of the root `<svg>` element, when both are plain numbers.
    static func intrinsicSize(ofSVG svg: String) -> CellImage.Size? {
        guard let start = svg.range(of: "<svg"), let end = svg[start.upperBound...].firstIndex(of: ">") else { return nil }
        let tag = svg[start.upperBound..<end]
        guard let width = number(named: "width", in: tag), let height = number(named: "height", in: tag),
              width > 0, height > 0 else { return nil }
        return CellImage.Size(width: width, height: height)
    }

    private static func number(named name: String, in tag: Substring) -> Int? {
        guard let range = tag.range(of: " \(name)=\"") else { return nil }
        return Int(tag[range.upperBound...].prefix { $0.isNumber })
    }
}
