import GRDB
import TableKit
import TablePages
import TableStore

/// A product's detail, the page that selecting a product shows: `/pages/product?id=3`.
///
/// The `id` is checked against the database on each request, so a product added while the
/// server runs has its detail page at once.
enum ProductDetailPage {
    static func definition(store: Store, changes: ChangeFeed) throws -> PageDefinition {
        PageDefinition(
            name: "product", title: "Product", summary: "One product's details; selecting a product leads here.",
            resolveVariant: { query throws(PageDefinition.VariantError) in
                let given = query["id"]
                let id = given.flatMap { Int64($0) } ?? (given == nil ? firstProductID(in: store) : nil)
                guard let id, productExists(id, in: store) else {
                    throw PageDefinition.VariantError(message: "id must name a product; got '\(given ?? "")'.")
                }
                return ["id": String(id)]
            },
            changes: changes
        ) { variant in
            let productID = Int64(variant["id"] ?? "") ?? 0
            let title = try store.read { try Product.fetchOne($0, key: productID)?.name } ?? "Product"
            return ExampleTable.make(root: try ProductDetailDataSource(store: store, productID: productID), title: title, variant: variant)
        }
    }

    private static func firstProductID(in store: Store) -> Int64? {
        try? store.read { try Product.order(Column("id")).fetchOne($0)?.id }
    }

    private static func productExists(_ id: Int64, in store: Store) -> Bool {
        (try? store.read { try Product.exists($0, key: id) }) == true
    }

    /// The detail page of the product with `id`.
    static func url(of id: Int64) -> String {
        "/pages/product?id=\(id)"
    }
}
