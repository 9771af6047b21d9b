// The URLs a rendered table links to, from the pieces in PageContract+URLs.swift, whose route
// patterns answer them. Identifiers are percent-encoded as path segments and
// query values, which also makes them safe in attributes; the base path and variant query come
// from the server and are escaped for their context.
extension RenderContext {
    /// `{base}/rows/{row}{suffix}?{variant}`, for an HTML attribute.
    func appendRowURL(_ row: RowID, suffix: StaticString, into out: inout OutputBuffer) {
        out.append(maxCount: maxRowURLCount(row, suffix: suffix)) { writeRowURL(row, suffix: suffix, into: &$0) }
    }

    /// The most bytes ``writeRowURL(_:suffix:into:)`` writes.
    func maxRowURLCount(_ row: RowID, suffix: StaticString) -> Int {
        ByteWriter.maxEscapedCount(basePath) + ByteWriter.maxPercentEncodedCount(row.rawValue)
            + ByteWriter.maxEscapedCount(variantQuery) + suffix.utf8CodeUnitCount + 8
    }

    /// `{base}/rows/{row}{suffix}?{variant}`, for an HTML attribute; every row's select form
    /// links here, so it is written with the rest of the row's opening markup.
    func writeRowURL(_ row: RowID, suffix: StaticString, into out: inout ByteWriter) {
        out.writeEscapedHTML(basePath)
        out.write(PageContract.rowsPath)
        out.writePercentEncoded(row.rawValue)
        out.write(suffix)
        if !variantQuery.isEmpty {
            out.write("?")
            out.writeEscapedHTML(variantQuery)
        }
    }

    /// `{base}/rows/{row}/actions/{name}?{variant}`, for an HTML attribute.
    func appendActionURL(_ row: RowID, action: String, into out: inout OutputBuffer) {
        out.appendEscapedHTML(basePath)
        out.append(PageContract.rowsPath)
        out.appendPercentEncoded(row.rawValue)
        out.append(PageContract.actionsPath)
        out.appendPercentEncoded(action)
        appendVariant(separator: "?", escaping: .html, into: &out)
    }

    /// `{base}/sections/{section}/rows?{variant}`, for an HTML attribute.
    func appendInsertURL(_ section: SectionID, into out: inout OutputBuffer) {
        out.appendEscapedHTML(basePath)
        out.append(PageContract.sectionsPath)
        out.appendPercentEncoded(section.rawValue)
        out.append(PageContract.sectionRowsPath)
        appendVariant(separator: "?", escaping: .html, into: &out)
    }

    /// `{base}/sections/{section}?after={row}&limit={limit}&{variant}`, or with `.json` after the
    /// section for JSON output, whose readers follow it with curl and must get JSON, not HTML.
    func appendNextURL(_ next: NextPage, escaping: TextEscaping, asJSON: Bool = false, into out: inout OutputBuffer) {
        // Written pre-escaped, as the escapers would write a literal "&".
        let ampersand: StaticString = escaping == .html ? "&amp;" : "\\u0026"
        out.appendEscaped(basePath, for: escaping)
        out.append(PageContract.sectionsPath)
        out.appendPercentEncoded(next.section.rawValue)
        if asJSON {
            out.append(PageContract.jsonSuffix)
        }
        out.append("?")
        if let after = next.after {
            out.appendUnescaped(PageContract.Query.after)
            out.append("=")
            out.appendPercentEncoded(after.rawValue)
            out.append(ampersand)
        }
        out.appendUnescaped(PageContract.Query.limit)
        out.append("=")
        out.append(next.limit)
        appendVariant(separator: ampersand, escaping: escaping, into: &out)
    }

    private func appendVariant(separator: StaticString, escaping: TextEscaping, into out: inout OutputBuffer) {
        guard !variantQuery.isEmpty else { return }
        out.append(separator)
        out.appendEscaped(variantQuery, for: escaping)
    }
}
