import TableStore

/// A product of the shop example; prices are whole cents so that sums stay exact.
struct Product: Identifiable, Hashable, Sendable {
    var id: Int64
    var name: String
    var category: String
    var priceCents: Int
    var stock: Int
    var summary: String

    /// "€12.50".
    var formattedPrice: String {
        let cents = priceCents % 100
        return "€\(priceCents / 100)." + (cents < 10 ? "0" : "") + String(cents)
    }

    private static let columns = "SELECT id, name, category, priceCents, stock, summary FROM product"

    private init(row: SQLRow) throws {
        self.init(
            id: try row.int64(0), name: try row.string(1), category: try row.string(2),
            priceCents: try row.int(3), stock: try row.int(4), summary: try row.string(5)
        )
    }

    init(id: Int64, name: String, category: String, priceCents: Int, stock: Int, summary: String) {
        (self.id, self.name, self.category, self.priceCents, self.stock, self.summary) = (id, name, category, priceCents, stock, summary)
    }

    /// Every product, by category then name: the order both layouts show.
    static func all(_ db: any SQLSession) throws -> [Product] {
        try db.rows(columns + " ORDER BY category, name, id").map(Product.init(row:))
    }

    /// The product with `id`, or the first one when `id` is nil.
    static func find(_ id: Int64?, _ db: any SQLSession) throws -> Product? {
        if let id { return try db.row(columns + " WHERE id = ?", [.integer(id)]).map(Product.init(row:)) }
        return try db.row(columns + " ORDER BY id LIMIT 1").map(Product.init(row:))
    }
}
