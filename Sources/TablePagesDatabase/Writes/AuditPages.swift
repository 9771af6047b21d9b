import Escaping
import Foundation
import Logging
import MicroHTTP
import TableKit
import TablePages
import TableStore

/// The audit trail as a page of its own: `GET /-/audit` (HTML) and `/-/audit.json`, the newest
/// writes first, ``pageSize`` at a time (`?before={id}` for older ones).
///
/// Who may read it: a signed-in browser (whoever holds the sign-in link the server logs) reads
/// all of it; an access token that may write reads the writes to the tables it may write (all
/// of them, for a token not limited to pages); a read-only token is refused (403), an anonymous
/// client asked to sign in (401).
///
///     AuditPages(writers: writers, siteTitle: site.title, accessControl: site.access)?.register(on: &router)
public struct AuditPages: Sendable {
    /// The page's path.
    public static let path = "/-/audit"
    /// Entries per page.
    public static let pageSize = 50
    /// The longest a value is shown in the HTML page, in characters (the JSON has it whole).
    static let shownCharacters = 200

    private let writers: TableWriters
    private let audit: any AuditTrail
    private let siteTitle: String
    private let accessControl: AccessControl
    private let logger: Logger

    /// The page of `writers`' audit trail; nil when they keep none (a database served read-only).
    public init?(writers: TableWriters, siteTitle: String, accessControl: AccessControl, logger: Logger = Logger(label: "TablePages")) {
        guard let audit = writers.audit else { return nil }
        self.writers = writers
        self.audit = audit
        self.siteTitle = siteTitle
        self.accessControl = accessControl
        self.logger = logger
    }

    /// Answers `GET /-/audit` and `/-/audit.json` on `router`.
    public func register(on router: inout Router) {
        router.on(.get, Self.path, use: { request in await self.answer(request) })
    }

    /// The tables whose writes `actor` may read; nil for all of them. Throws the refusal.
    func readableTables(for actor: Actor?) throws(HTTPError) -> Set<String>? {
        guard let actor else { throw HTTPError(401, "Sign in to read the audit trail.") }
        if actor.sessionID != nil { return nil }
        guard actor.mayWrite else { throw HTTPError(403, "A read-only token may not read the audit trail.") }
        guard let pages = actor.pages else { return nil }
        return Set(writers.writableTables.filter { pages.contains(DatabaseTablePages.pageName(ofTable: $0)) })
    }

    private func answer(_ request: Request) async -> Response {
        let json = request.prefersJSON
        let tables: Set<String>?
        do {
            tables = try readableTables(for: accessControl.actor(for: request))
        } catch {
            return failure(error.message, status: error.status, json: json)
        }
        let before = request.query["before"].map { Int64($0) }
        if before == .some(nil) { return failure("before must be an entry's number.", status: 400, json: json) }
        let (audit, olderThan) = (audit, before ?? nil)
        let records: [AuditRecord]
        do {
            // One more than a page: whether older entries follow.
            records = try await OwnThread.run { try audit.records(before: olderThan, limit: Self.pageSize + 1, tables: tables) }
        } catch {
            logger.error("the audit trail could not be read: \(String(reflecting: error))")
            return failure("The audit trail could not be read.", status: 503, json: json)
        }
        let shown = Array(records.prefix(Self.pageSize))
        let next = records.count > Self.pageSize ? shown.last.map { Self.path + (json ? ".json" : "") + "?before=\($0.id)" } : nil
        return json ? .json(document(shown, next: next).bytes) : SiteDocument.response(title: "Audit trail", siteTitle: siteTitle, body: html(shown, next: next))
    }

    private func failure(_ message: String, status: Int, json: Bool) -> Response {
        guard !json else {
            var out = OutputBuffer()
            out.append("{\"ok\": false, \"error\": ")
            out.appendJSONString(message)
            out.append(", \"status\": ")
            out.append(status)
            out.append("}")
            return .json(out.bytes, status: status)
        }
        return SiteDocument.response(title: "Audit trail", siteTitle: siteTitle, body: "<main class=\"tp-index tp-audit\"><h1>Audit trail</h1><p role=\"alert\">" + HTMLEscaping.escape(message) + "</p></main>", status: status)
    }

    /// The row id a table page gives the row with `key`, when the table has a writer.
    private func rowID(_ entry: AuditEntry) -> String? {
        (try? writers.writer(forTable: entry.table))?.rowID(of: entry.key)
    }

    private static let timeFormat = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// `{"entries": [...], "next": …}`, each entry with its values as Datasette writes them.
    func document(_ records: [AuditRecord], next: String?) -> OutputBuffer {
        var out = OutputBuffer()
        out.append("{\"entries\": [")
        for (index, record) in records.enumerated() {
            let entry = record.entry
            if index > 0 { out.append(", ") }
            out.append("{\"id\": ")
            out.append(Int(record.id))
            out.append(", \"write_id\": ")
            out.appendJSONString(record.writeID)
            out.append(", \"undoes\": ")
            out.appendJSONString(entry.undoes)
            out.append(", \"time\": ")
            out.appendJSONString(entry.time.formatted(Self.timeFormat))
            out.append(", \"actor\": ")
            out.appendJSONString(entry.author.name)
            out.append(", \"channel\": ")
            out.appendJSONString(entry.author.channel.rawValue)
            out.append(", \"table\": ")
            out.appendJSONString(entry.table)
            out.append(", \"row_id\": ")
            out.appendJSONString(rowID(entry))
            out.append(", \"key\": [")
            for (position, value) in entry.key.values.enumerated() {
                if position > 0 { out.append(", ") }
                DatasetteJSON.appendValue(value, to: &out)
            }
            out.append("], \"action\": ")
            out.appendJSONString(entry.action.rawValue)
            for (name, values) in [("old", entry.old), ("new", entry.new)] {
                out.appendUnescaped(", \"\(name)\": ")
                guard let values else {
                    out.append("null")
                    continue
                }
                out.append("{")
                for (position, column) in values.keys.sorted().enumerated() {
                    if position > 0 { out.append(", ") }
                    out.appendJSONString(column)
                    out.append(": ")
                    DatasetteJSON.appendValue(values[column] ?? .null, to: &out)
                }
                out.append("}")
            }
            out.append("}")
        }
        out.append("], \"next\": ")
        out.appendJSONString(next)
        out.append("}")
        return out
    }

    /// A table of the entries: when, who and how, which row, and what changed.
    func html(_ records: [AuditRecord], next: String?) -> String {
        var html = "<main class=\"tp-index tp-audit\"><h1>Audit trail</h1>"
        guard !records.isEmpty else { return html + "<p>No writes yet.</p></main>" }
        html += "<table class=\"tp-audit-table\"><thead><tr><th scope=\"col\">When</th><th scope=\"col\">Who</th><th scope=\"col\">Row</th><th scope=\"col\">Change</th></tr></thead><tbody>"
        for record in records {
            let entry = record.entry
            let time = entry.time.formatted(Self.timeFormat)
            html += "<tr><td><time datetime=\"" + time + "\">" + HTMLEscaping.escape(time) + "</time></td>"
            html += "<td>" + HTMLEscaping.escape(entry.author.name) + " <small>(" + entry.author.channel.rawValue + ")</small></td>"
            let row = HTMLEscaping.escape(entry.table) + " " + HTMLEscaping.escape(entry.key.values.map(Self.shown).joined(separator: ", "))
            if let id = rowID(entry), entry.action != .delete {
                let href = PageContract.pagePath(named: DatabaseTablePages.pageName(ofTable: entry.table)) + "/rows/" + URLComponentEncoding.encode(id)
                html += "<td><a href=\"" + HTMLEscaping.escape(href) + "\">" + row + "</a></td>"
            } else {
                html += "<td>" + row + "</td>"
            }
            html += "<td>" + (entry.undoes == nil ? "" : "Undo: ") + change(entry) + "</td></tr>"
        }
        html += "</tbody></table>"
        if let next { html += "<p><a rel=\"next\" href=\"" + HTMLEscaping.escape(next) + "\">Older</a></p>" }
        return html + "</main>"
    }

    /// What happened to the row, in words: its values for an insert or a delete, each changed
    /// column's old and new value for an update.
    private func change(_ entry: AuditEntry) -> String {
        func list(_ values: [String: SQLValue]?) -> String {
            (values ?? [:]).sorted { $0.key < $1.key }.map { HTMLEscaping.escape($0.key) + " = " + HTMLEscaping.escape(Self.shown($0.value)) }.joined(separator: "; ")
        }
        switch entry.action {
        case .insert: return "inserted: " + list(entry.new)
        case .delete: return "deleted: " + list(entry.old)
        case .update:
            let columns = Set((entry.old ?? [:]).keys).union((entry.new ?? [:]).keys).sorted().filter { entry.old?[$0] != entry.new?[$0] }
            return "changed: " + columns.map { column in
                HTMLEscaping.escape(column) + " " + HTMLEscaping.escape(Self.shown(entry.old?[column] ?? .null)) + " \u{2192} " + HTMLEscaping.escape(Self.shown(entry.new?[column] ?? .null))
            }.joined(separator: "; ")
        }
    }

    /// A value as the page shows it, cut to ``shownCharacters``.
    static func shown(_ value: SQLValue) -> String {
        let text: String = switch value {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): "\u{201C}" + text + "\u{201D}"
        case .bool(let flag): flag ? "true" : "false"
        case .blob(let bytes): "<\(bytes.count) bytes>"
        }
        return text.count > shownCharacters ? String(text.prefix(shownCharacters)) + "\u{2026}" : text
    }
}
