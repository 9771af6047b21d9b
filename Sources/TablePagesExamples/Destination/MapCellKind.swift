import TableKit

extension CellKind {
    /// A map-like cell: the map picture with a caption naming the place and its coordinates.
    static let map = CellKind(reuseIdentifier: "map") { content, out in
        out.append("<span class=\"tk-figure tk-map\">")
        CellMarkup.image(content, into: &out)
        out.append("</span><span class=\"tk-caption\">")
        CellMarkup.title(content, into: &out)
        CellMarkup.subtitle(content, into: &out)
        out.append("</span>")
    }
}
