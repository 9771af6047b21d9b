import TableKit

/// An estimate of the memory a live table holds, so the process can keep its page variants
/// within a budget in bytes (``LiveSettings/liveVariantsByteLimit``).
///
/// Measuring a table's heap directly is not possible in Swift, so the estimate counts what grows
/// with the data: every row it holds, costed as ``rowBytes`` plus 1.5 times its JSON, averaged
/// over a sample of rows (up to ``sampleRows`` in all, spread over the sections), plus a fixed
/// cost per host and per section. Rows of one section are alike in practice (one database query,
/// one data source), so the sample's average stands for the rest.
///
/// Calibrated on database pages in a debug build, from the server's resident memory over 100–200
/// variants: 1,000 rows of 158 bytes of JSON took 1,044 bytes a row, 300 rows of 1,157 bytes took
/// 2,318 a row (a row's fixed cost is about 850 bytes, and its content is held about 1.3 times);
/// the estimate gives 1,137 and 2,636.
enum TableMemoryEstimate {
    /// Rows rendered to estimate one table, at most.
    static let sampleRows = 64
    /// What a held row costs besides its content: its cell, its record and their identifiers.
    static let rowBytes = 900
    /// What a host costs before any row: the actor, its channel, records and feed observation.
    static let hostBytes = 16 * 1024
    /// What a section costs besides its rows.
    static let sectionBytes = 512

    /// The estimated bytes `table` holds.
    static func bytes(of table: TableAdapter, context: RenderContext) -> Int {
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
                guard let id = table.rowID(at: TableIndexPath(section: section, row: row)) else { continue }
                out.removeAll()
                guard (try? renderer.renderRow(id, as: .json, into: &out)) != nil else { continue }
                sampled += 1
                sampleBytes += out.count
            }
            if sampled > 0 {
                total += rows * rowBytes + sampleBytes * 3 / 2 * rows / sampled
            }
        }
        return total
    }
}
