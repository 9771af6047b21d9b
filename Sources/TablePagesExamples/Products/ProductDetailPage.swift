import GRDB
import TableKit
import TablePages
import TableStore

/// A product's detail, the page that selecting a product shows: `/pages/product?id=3`.
///
/// Variants must be declared up front, so the products that exist when the pages are
/// registered are the ones with a detail page.
enum ProductDetailPage {
    static func definition(store: Store, changes: ChangeFeed) throws -> PageDefinition {
        let ids = try store.read { try Product.order(Column("id")).fetchAll($0).map { String($0.id) } }
        return PageDefinition(
            name: "product", title: "Product", summary: "One product's details; selecting a product leads here.",
            variants: ["id": ids], changes: changes
        ) { variant in
            let productID = Int64(variant["id"] ?? "") ?? 0
            let title = try store.read { try Product.fetchOne($0, key: productID)?.name } ?? "Product"
            return ExampleTable.make(root: try ProductDetailDataSource(store: store, productID: productID), title: title, variant: variant)
        }
    }

    /// The detail page of the product with `id`.
    static func url(of id: Int64) -> String {
        "/pages/product?id=\(id)"
    }
}
