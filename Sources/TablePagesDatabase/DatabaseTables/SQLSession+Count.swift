import TableStore

extension SQLSession {
    /// The integer in the first column of the first row of `sql` (a `count(*)`); 0 when there is none.
    func count(_ sql: String, _ arguments: [SQLValue]) throws -> Int {
        try row(sql, arguments)?.first?.intValue ?? 0
    }
}
