/// The HTML parts built-in cell kinds are made of, for custom kinds to reuse.
///
///     let badgeFirst = CellKind(reuseIdentifier: "badge-first") { content, out in
///         CellMarkup.badge(content, into: &out)
///         CellMarkup.title(content, into: &out)
///     }
///
/// Every part writes phrasing content (spans and images) and nothing when its value is absent.
public enum CellMarkup {
    /// `<span class="tk-title">…</span>`.
    public static func title(_ content: CellContent, into out: inout OutputBuffer) {
        appendSpan(titleOpen, content.title, into: &out)
    }

    /// `<span class="tk-subtitle">…</span>`.
    public static func subtitle(_ content: CellContent, into out: inout OutputBuffer) {
        appendSpan(subtitleOpen, content.subtitle, into: &out)
    }

    /// `<span class="tk-detail">…</span>`.
    public static func detail(_ content: CellContent, into out: inout OutputBuffer) {
        appendSpan(detailOpen, content.detail, into: &out)
    }

    /// `<span class="tk-badge">…</span>`.
    public static func badge(_ content: CellContent, into out: inout OutputBuffer) {
        appendSpan(badgeOpen, content.badge, into: &out)
    }

    /// One `<span class="tk-field" data-field="…">…</span>` per extra field.
    public static func fields(_ content: CellContent, into out: inout OutputBuffer) {
        for field in content.fields {
            out.append("<span class=\"tk-field\" data-field=\"")
            out.appendEscapedHTML(field.name)
            out.append("\">")
            out.appendEscapedHTML(field.value)
            out.append("</span>")
        }
    }

    /// A lazily loaded `<img>` with width and height when the size is known; nothing when the
    /// address is refused by ``URLPolicy``.
    public static func image(_ content: CellContent, into out: inout OutputBuffer) {
        guard let image = content.image, URLPolicy.allows(image.url) else { return }
        out.append("<img class=\"tk-image\" src=\"")
        out.appendEscapedHTML(image.url)
        out.append("\" alt=\"")
        out.appendEscapedHTML(image.alt)
        out.append("\"")
        if let size = image.size {
            out.append(" width=\"")
            out.append(size.width)
            out.append("\" height=\"")
            out.append(size.height)
            out.append("\"")
        }
        out.append(" loading=\"lazy\">")
    }

    /// The trailing accessory; decorative ones are hidden from assistive technology.
    public static func accessory(_ content: CellContent, into out: inout OutputBuffer) {
        switch content.accessory {
        case .none:
            break
        case .disclosureIndicator:
            out.append("<span class=\"tk-accessory tk-disclosure\" aria-hidden=\"true\">\u{203A}</span>")
        case .checkmark:
            out.append("<span class=\"tk-accessory tk-checkmark\" role=\"img\" aria-label=\"checked\">\u{2713}</span>")
        case .detailButton:
            out.append("<span class=\"tk-accessory tk-detail-button\" aria-hidden=\"true\">\u{24D8}</span>")
        }
    }

    /// Writes a span of `text` in one reservation; nothing when `text` is nil.
    private static func appendSpan(_ open: StaticString, _ text: String?, into out: inout OutputBuffer) {
        guard let text else { return }
        // Sized from the very pieces `writeSpan` writes, so no text can outgrow it.
        let maxCount = open.utf8CodeUnitCount + spanClose.utf8CodeUnitCount + ByteWriter.maxEscapedCount(text)
        out.append(maxCount: maxCount) { writeSpan(open, text, into: &$0) }
    }

    // MARK: Parts in one reservation

    // Built-in kinds write their consecutive text parts in one reservation: a cell is rendered
    // for every row, and an append per part cost more than the bytes (see ByteWriter).

    /// The most bytes the `write…` parts write for `content`, all of them together, with room
    /// for a few more tags around them.
    static func maxTextCount(_ content: CellContent) -> Int {
        256 + ByteWriter.maxEscapedCount(content.title ?? "") + ByteWriter.maxEscapedCount(content.subtitle ?? "")
            + ByteWriter.maxEscapedCount(content.detail ?? "") + ByteWriter.maxEscapedCount(content.badge ?? "")
    }

    /// ``title(_:into:)`` inside a reservation.
    static func writeTitle(_ content: CellContent, into out: inout ByteWriter) {
        writeSpan(titleOpen, content.title, into: &out)
    }

    /// ``subtitle(_:into:)`` inside a reservation.
    static func writeSubtitle(_ content: CellContent, into out: inout ByteWriter) {
        writeSpan(subtitleOpen, content.subtitle, into: &out)
    }

    /// ``detail(_:into:)`` inside a reservation.
    static func writeDetail(_ content: CellContent, into out: inout ByteWriter) {
        writeSpan(detailOpen, content.detail, into: &out)
    }

    /// ``badge(_:into:)`` inside a reservation.
    static func writeBadge(_ content: CellContent, into out: inout ByteWriter) {
        writeSpan(badgeOpen, content.badge, into: &out)
    }

    private static let titleOpen: StaticString = "<span class=\"tk-title\">"
    private static let subtitleOpen: StaticString = "<span class=\"tk-subtitle\">"
    private static let detailOpen: StaticString = "<span class=\"tk-detail\">"
    private static let badgeOpen: StaticString = "<span class=\"tk-badge\">"
    private static let spanClose: StaticString = "</span>"

    private static func writeSpan(_ open: StaticString, _ text: String?, into out: inout ByteWriter) {
        guard let text else { return }
        out.write(open)
        out.writeEscapedHTML(text)
        out.write(spanClose)
    }
}
