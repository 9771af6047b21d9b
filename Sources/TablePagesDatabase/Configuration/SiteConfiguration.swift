import Foundation

/// The configuration file of `serve --config FILE`: one JSON object, in the spirit of Datasette's
/// metadata, with two optional keys:
///
///     {
///       "tables": {
///         "orders": {"title": "Orders", "description": "One row per order", "label_column": "code", "hidden": false}
///       },
///       "queries": {
///         "by_status": {"title": "Orders by status", "description": "…", "sql": "select status, count(*) from orders where customer = :customer group by status"}
///       }
///     }
///
/// Every key is optional but a query's `sql`; an unknown key, a value of the wrong type, a table
/// the database does not have and a query name that is empty are errors that name the file and
/// the key (``ConfigurationError``), as is JSON that does not parse (with its line and column).
public struct SiteConfiguration: Sendable, Equatable {
    /// Per table or view, by name.
    public var tables: [String: TableConfiguration] = [:]
    /// The canned queries, by name (a JSON object's keys have no order a decoder keeps).
    public var queries: [CannedQuery] = []

    /// No configuration.
    public init(tables: [String: TableConfiguration] = [:], queries: [CannedQuery] = []) {
        self.tables = tables
        self.queries = queries
    }

    /// Reads the file at `path`.
    /// - Throws: ``ConfigurationError`` naming the file and what is wrong where.
    public static func load(path: String) throws -> SiteConfiguration {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError(path: path, location: nil, problem: "cannot be read (\(error.localizedDescription))")
        }
        return try parse(data, path: path)
    }

    /// Reads `data`, the contents of the file at `path` (named in errors).
    static func parse(_ data: Data, path: String) throws -> SiteConfiguration {
        do {
            return try JSONDecoder().decode(File.self, from: data).configuration
        } catch let error as DecodingError {
            throw ConfigurationError(decoding: error, path: path, data: data)
        }
    }

    /// The file's top level, decoded strictly.
    private struct File: Decodable {
        var configuration = SiteConfiguration()

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: ConfigurationKey.self)
            try ConfigurationKey.refuseUnknown(in: container, known: ["tables", "queries"])
            configuration.tables = try container.decodeIfPresent([String: TableConfiguration].self, forKey: ConfigurationKey("tables")) ?? [:]
            if container.contains(ConfigurationKey("queries")) {
                let queries = try container.nestedContainer(keyedBy: ConfigurationKey.self, forKey: ConfigurationKey("queries"))
                for key in queries.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                    let query = try queries.nestedContainer(keyedBy: ConfigurationKey.self, forKey: key)
                    try ConfigurationKey.refuseUnknown(in: query, known: CannedQuery.keys)
                    guard !key.stringValue.isEmpty else {
                        throw DecodingError.dataCorruptedError(forKey: key, in: queries, debugDescription: "a query needs a name")
                    }
                    configuration.queries.append(CannedQuery(
                        name: key.stringValue,
                        title: try query.decodeIfPresent(String.self, forKey: ConfigurationKey("title")),
                        description: try query.decodeIfPresent(String.self, forKey: ConfigurationKey("description")),
                        sql: try query.decode(String.self, forKey: ConfigurationKey("sql"))
                    ))
                }
            }
        }
    }

    /// Checks each canned query with `runner` (``QueryRunner/check(_:)``: prepared on the
    /// database, not run), in name order.
    /// - Throws: ``ConfigurationError`` at `queries.{name}.sql` of the file at `path`, with the
    ///   database's message, for the first query that would not run or would write.
    public func checkQueries(with runner: any QueryRunner, path: String) throws {
        for query in queries {
            do {
                try runner.check(query.sql)
            } catch let refusal as QueryRefusal {
                throw ConfigurationError(path: path, location: "queries.\(query.name).sql", problem: refusal.message)
            } catch {
                throw ConfigurationError(path: path, location: "queries.\(query.name).sql", problem: "could not be checked: \(error)")
            }
        }
    }

    /// An error naming the key of each table `tables` (the database's tables and views) does not have.
    public func checkTables(against tables: [String], path: String) throws {
        for name in self.tables.keys.sorted() where !tables.contains(name) {
            throw ConfigurationError(path: path, location: "tables." + name, problem: "the database has no table or view of this name")
        }
    }
}
