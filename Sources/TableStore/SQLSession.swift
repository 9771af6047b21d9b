/// Parameterised SQL inside one transaction of an ``SQLStore``: the whole surface pages need from
/// a database, so that one page's code runs on SQLite and PostgreSQL alike.
///
///     let open = try session.rows("SELECT id FROM todo WHERE isDone = ?", [.bool(false)])
///     try session.forEachRow("SELECT id, body FROM note", []) { row in try sink.write(row) }
///
/// Placeholders are `?`, numbered left to right (a PostgreSQL session rewrites them to `$1`, `$2`,
/// …). Calls block their thread until the database answers: run them on a thread that may block,
/// such as a database lane, never on Swift's cooperative pool or an event loop.
///
/// ## Implementation requirements
/// Every call of one session runs in the same transaction, and a read-only session's calls see
/// one snapshot of the database. Errors are thrown as the store's own errors.
/// ``forEachRow(_:_:keepsPrepared:_:)`` hands each row over as it is read where the database
/// allows it, and stops at the body's first error, reading no further rows.
public protocol SQLSession {
    /// Runs a query and calls `body` with each row, in order, as it is read; an error `body`
    /// throws stops the query and is rethrown.
    ///
    /// `keepsPrepared` says that `sql` is one of a bounded set of texts, which a session may keep
    /// prepared on its connection; a session must not keep the others, which may be unboundedly
    /// many.
    func forEachRow(_ sql: String, _ arguments: [SQLValue], keepsPrepared: Bool, _ body: (SQLRow) throws -> Void) throws

    /// Runs a statement whose rows, if any, are not needed.
    func execute(_ sql: String, _ arguments: [SQLValue]) throws
}

extension SQLSession {
    /// Runs a query and calls `body` with each row, preparing `sql` for this call only.
    public func forEachRow(_ sql: String, _ arguments: [SQLValue] = [], _ body: (SQLRow) throws -> Void) throws {
        try forEachRow(sql, arguments, keepsPrepared: false, body)
    }

    /// Runs a query and returns every row it produced.
    public func rows(_ sql: String, _ arguments: [SQLValue] = [], keepsPrepared: Bool = false) throws -> [SQLRow] {
        var rows: [SQLRow] = []
        try forEachRow(sql, arguments, keepsPrepared: keepsPrepared) { rows.append($0) }
        return rows
    }

    /// The first row of a query, or nil when it produced none; the rows after it are not read.
    public func row(_ sql: String, _ arguments: [SQLValue] = [], keepsPrepared: Bool = false) throws -> SQLRow? {
        var first: SQLRow?
        do {
            try forEachRow(sql, arguments, keepsPrepared: keepsPrepared) { row in
                first = row
                throw FirstRowRead()
            }
        } catch is FirstRowRead {}
        return first
    }

    /// Runs a statement with no arguments.
    public func execute(_ sql: String) throws {
        try execute(sql, [])
    }
}

/// Stops a query after its first row (``SQLSession/row(_:_:keepsPrepared:)``).
private struct FirstRowRead: Error {}
