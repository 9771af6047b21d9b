extension CellKind {
    /// A title with an optional leading image, badge and accessory (UIKit's `.default` style).
    public static let basic = CellKind(reuseIdentifier: "basic") { content, out in
        CellMarkup.image(content, into: &out)
        CellMarkup.title(content, into: &out)
        CellMarkup.fields(content, into: &out)
        CellMarkup.badge(content, into: &out)
        CellMarkup.accessory(content, into: &out)
    }

    /// A title with a subtitle under it, and the detail at the trailing edge when given
    /// (UIKit's `.subtitle` style).
    public static let subtitle = CellKind(reuseIdentifier: "subtitle") { content, out in
        CellMarkup.image(content, into: &out)
        out.append(maxCount: CellMarkup.maxTextCount(content)) { out in
            out.write("<span class=\"tk-text\">")
            CellMarkup.writeTitle(content, into: &out)
            CellMarkup.writeSubtitle(content, into: &out)
            out.write("</span>")
            CellMarkup.writeDetail(content, into: &out)
        }
        CellMarkup.fields(content, into: &out)
        CellMarkup.badge(content, into: &out)
        CellMarkup.accessory(content, into: &out)
    }

    /// A title with the detail at the trailing edge (UIKit's `.value1` style).
    public static let value = CellKind(reuseIdentifier: "value") { content, out in
        CellMarkup.image(content, into: &out)
        out.append(maxCount: CellMarkup.maxTextCount(content)) { out in
            CellMarkup.writeTitle(content, into: &out)
            CellMarkup.writeDetail(content, into: &out)
        }
        CellMarkup.fields(content, into: &out)
        CellMarkup.badge(content, into: &out)
        CellMarkup.accessory(content, into: &out)
    }

    /// A prominent image with a caption made of the title and subtitle; the image carries its
    /// width and height when known so the browser reserves its space.
    public static let image = CellKind(reuseIdentifier: "image") { content, out in
        out.append("<span class=\"tk-figure\">")
        CellMarkup.image(content, into: &out)
        out.append("</span><span class=\"tk-caption\">")
        CellMarkup.title(content, into: &out)
        CellMarkup.subtitle(content, into: &out)
        out.append("</span>")
        CellMarkup.badge(content, into: &out)
        CellMarkup.accessory(content, into: &out)
    }

    /// An action row ("Add item", "Show all") whose title reads as a button label; selecting the
    /// row performs the action.
    public static let button = CellKind(reuseIdentifier: "button") { content, out in
        out.append("<span class=\"tk-button-title\">")
        out.appendEscapedHTML(content.title ?? "")
        out.append("</span>")
    }

    /// The kinds every ``CellKindRegistry`` starts with.
    public static let builtIns: [CellKind] = [.basic, .subtitle, .value, .image, .button]
}
