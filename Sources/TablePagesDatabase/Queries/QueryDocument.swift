import Escaping
import Foundation
import MicroHTTP
import TablePages
import TableStore

/// The SQL page's HTML: a form (the SQL in a text area, or shown as code for a canned query, and
/// one field per named parameter), then the result as a table, or why there is none.
enum QueryDocument {
    /// What the page shows.
    struct Content {
        var title: String
        var description: String?
        /// The page's own path: where the form is sent, and the base of its JSON and CSV links.
        var path: String
        var sql: String
        /// Whether the SQL is the visitor's to edit (the SQL page) or fixed (a canned query).
        var editable: Bool
        var parameters: [(name: String, value: String)]
        var result: QueryResult?
        var error: String?
        /// The query string of this request, for the JSON and CSV links.
        var query: String
        /// The live page of the same query and parameters, if it has one.
        var livePath: String?
    }

    static func response(_ content: Content, siteTitle: String, status: Int) -> Response {
        var html = "<main class=\"tp-index tp-sql\"><h1>" + HTMLEscaping.escape(content.title) + "</h1>"
        if let description = content.description, !description.isEmpty {
            html += "<p class=\"tp-sql-description\">" + HTMLEscaping.escape(description) + "</p>"
        }
        html += "<form class=\"tp-sql-form\" method=\"get\" action=\"" + HTMLEscaping.escape(content.path) + "\">"
        if content.editable {
            html += "<label for=\"tp-sql-text\">SQL</label><textarea id=\"tp-sql-text\" name=\"sql\" rows=\"6\" spellcheck=\"false\" autocapitalize=\"off\">"
            html += HTMLEscaping.escape(content.sql) + "</textarea>"
        } else {
            html += "<pre class=\"tp-sql-code\"><code>" + HTMLEscaping.escape(content.sql) + "</code></pre>"
        }
        if !content.parameters.isEmpty {
            html += "<fieldset class=\"tp-sql-parameters\"><legend>Parameters</legend>"
            for (index, parameter) in content.parameters.enumerated() {
                let id = "tp-sql-p\(index)"
                html += "<label for=\"" + id + "\">" + HTMLEscaping.escape(parameter.name) + "</label>"
                html += "<input type=\"text\" id=\"" + id + "\" name=\"" + HTMLEscaping.escape(parameter.name) + "\" value=\"" + HTMLEscaping.escape(parameter.value) + "\">"
            }
            html += "</fieldset>"
        }
        html += "<button type=\"submit\">Run</button></form>"
        if let error = content.error {
            html += "<p class=\"tp-sql-error\" role=\"alert\">" + HTMLEscaping.escape(error) + "</p>"
        }
        if let result = content.result {
            html += summary(result, content: content)
            html += table(result)
        }
        html += "</main>"
        return SiteDocument.response(title: content.title, siteTitle: siteTitle, body: html, status: status)
    }

    private static func summary(_ result: QueryResult, content: Content) -> String {
        let count = result.rows.count
        var html = "<p class=\"tp-sql-summary\" role=\"status\">"
        html += (count == 1 ? "1 row" : "\(count.formatted()) rows") + (result.truncated ? " (more were left out: the row or size limit)" : "")
        html += " in " + String(format: "%.1f", result.milliseconds) + " ms · "
        let query = content.query.isEmpty ? "" : "?" + content.query
        html += "<a href=\"" + HTMLEscaping.escape(content.path + ".json" + query) + "\" type=\"application/json\">JSON</a> · "
        html += "<a href=\"" + HTMLEscaping.escape(content.path + ".csv" + query) + "\" type=\"text/csv\">CSV</a>"
        if let live = content.livePath { html += " · <a class=\"tp-sql-watch\" href=\"" + HTMLEscaping.escape(live) + "\">Watch live</a>" }
        html += "</p>"
        return html
    }

    private static func table(_ result: QueryResult) -> String {
        // Focusable and named: on a phone a wide result scrolls sideways in its box, which a
        // keyboard can only scroll once it can focus it.
        var html = "<div class=\"tp-sql-result\" tabindex=\"0\" role=\"region\" aria-label=\"Result\"><table><thead><tr>"
        for (index, column) in result.columns.enumerated() {
            let numbers = result.isNumeric(column: index)
            html += "<th scope=\"col\"" + (numbers ? " class=\"tp-sql-number\"" : "") + ">" + HTMLEscaping.escape(column) + "</th>"
        }
        html += "</tr></thead><tbody>"
        for row in result.rows {
            html += "<tr>"
            for value in row { html += cell(value) }
            html += "</tr>"
        }
        return html + "</tbody></table></div>"
    }

    private static func cell(_ value: SQLValue) -> String {
        switch value {
        case .null: "<td class=\"tp-sql-null\"></td>"
        case .integer(let integer): "<td class=\"tp-sql-number\">" + String(integer) + "</td>"
        case .real(let double): "<td class=\"tp-sql-number\">" + String(double) + "</td>"
        case .bool(let flag): "<td>" + (flag ? "true" : "false") + "</td>"
        case .text(let text): "<td>" + HTMLEscaping.escape(text) + "</td>"
        case .blob(let data): "<td class=\"tp-sql-blob\">&lt;Binary: " + data.count.formatted() + (data.count == 1 ? " byte" : " bytes") + "&gt;</td>"
        }
    }
}
