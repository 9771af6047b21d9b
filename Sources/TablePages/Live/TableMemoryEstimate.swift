import TableKit

/// An estimate of the memory a live table holds, so the process can keep its page variants
/// within a budget in bytes (``LiveSettings/liveVariantsByteLimit``).
///
/// Measuring a table's heap directly is not possible in Swift, so the estimate counts what grows
/// with the data: every row it holds, costed as the JSON of a sample of its rows (up to
/// ``sampleRows`` in all, spread over the sections) times ``bytesPerJSONByte``, plus a fixed cost
/// per host and per section. Rows of one section are alike in practice (one database query, one
/// data source), so the sample's average stands for the rest.
enum TableMemoryEstimate {
    /// Rows rendered to estimate one table, at most.
    static let sampleRows = 64
    /// Memory a held row costs per byte of its JSON. Measured on a 1,000,000-row database's
    /// variants (strings and integers): each row is held by the data source and again as the
    /// table's row record (content and cell fields, hashed by id), about 3–4 times its JSON.
    static let bytesPerJSONByte = 4
    /// What a host costs before any row: the actor, its channel, records and feed observation.
    static let hostBytes = 16 * 1024
    /// What a section costs besides its rows.
    static let sectionBytes = 512

    /// The estimated bytes `table` holds.
    static func bytes(of table: TableView, context: RenderContext) -> Int {
        let sections = table.numberOfSections
        guard sections > 0 else { return hostBytes }
        let renderer = TableRenderer(table: table, context: context)
        let perSection = max(1, sampleRows / sections)
        var total = hostBytes + sections * sectionBytes
        for section in 0..<sections {
            let rows = table.numberOfRows(inSection: section)
            var sampled = 0
            var sampleBytes = 0
            var out = OutputBuffer()
            for row in 0..<min(rows, perSection) {
                guard let id = table.rowID(at: IndexPath(section: section, row: row)) else { continue }
                out.removeAll()
                guard (try? renderer.renderRow(id, as: .json, into: &out)) != nil else { continue }
                sampled += 1
                sampleBytes += out.count
            }
            if sampled > 0 {
                total += sampleBytes * bytesPerJSONByte * rows / sampled
            }
        }
        return total
    }
}
