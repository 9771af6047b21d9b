import GRDB

/// A product of the shop example; prices are whole cents so that sums stay exact.
struct Product: Codable, Identifiable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "product"

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

    /// Every product, by category then name: the order both layouts show.
    static func all(_ db: Database) throws -> [Product] {
        try Product.order(Column("category"), Column("name")).fetchAll(db)
    }
}
