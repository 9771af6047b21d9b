import TablePages
import TablePagesDatabase

/// A product's detail, the page a product's row links to: `/pages/product?id=3`.
///
/// The `id` is checked against the database when the variant's table is made, so a product added
/// while the server runs has its detail page at once. Only its form is checked when the variant is
/// chosen: that runs on the server's event threads, which must never wait for a database.
enum ProductDetailPage {
    static func definition(data: ExampleData) throws -> PageDefinition {
        PageDefinition(
            name: "product", title: "Product", summary: "One product's details; a product's row leads here.",
            resolveVariant: { query throws(PageDefinition.VariantError) in
                // Without an id, the page shows the first product.
                guard let given = query["id"] else { return [:] }
                guard let id = Int64(given) else {
                    throw PageDefinition.VariantError(message: "id must name a product; got '\(given)'.")
                }
                return ["id": String(id)]
            },
            // Its rows are links, for everyone: nothing on it changes through the web.
            access: .everyoneReads
        ) { variant in
            let given = variant["id"]
            let product = try data.snapshot { db in try Product.find(given.map { Int64($0) ?? 0 }, db) }
            guard let product else {
                // The factory's VariantError is a 404: the id is well formed but names nothing.
                throw PageDefinition.VariantError(message: "id must name a product; got '\(given ?? "")'.")
            }
            return ProductDetailSource(data: data, productID: product.id)
        }
    }

    /// The detail page of the product with `id`.
    static func url(of id: Int64) -> String {
        "/pages/product?id=\(id)"
    }
}
