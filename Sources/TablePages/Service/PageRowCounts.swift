/// The row counts the index of pages shows beside the pages that count their rows
/// (``PageDefinition/countRows``), e.g. every table of a served database.
enum PageRowCounts {
    /// Counts the rows of those of `pages` that can, one after the other on the least busy lane
    /// (each counter is bounded by the database's query time limit), by page name: the number of
    /// rows, or nil for more than could be counted in time. A page without a counter, or whose
    /// counter threw, has no entry; with every lane busy, no page has one, and the index is
    /// still answered.
    static func count(_ pages: [PageDefinition], lanes: DatabaseLanes) async -> [String: Int?] {
        let counters = pages.compactMap { page in page.countRows.map { (name: page.name, count: $0) } }
        guard !counters.isEmpty else { return [:] }
        let lane = lanes.leastBusy()
        guard (try? lanes.admit(lane)) != nil else { return [:] }
        let counted = try? await lane.run { () -> [String: Int?] in
            var counts: [String: Int?] = [:]
            for counter in counters {
                // Not `try?`, which would make a count that threw look like "many".
                do {
                    counts[counter.name] = .some(try counter.count())
                } catch {}
            }
            return counts
        }
        return counted ?? [:]
    }
}
