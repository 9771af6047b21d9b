import TableKit
import TableStore

/// What the two product data sources share: where products come from, how a product looks in
/// a row, and where selecting one leads.
struct ProductCatalog: Sendable {
    let store: any SQLStore

    /// Every product, in the order both layouts show them.
    func products() throws -> [Product] {
        try store.snapshot(Product.all)
    }

    /// The row of a product: one reusable cell filled by ``ProductCell``.
    static func cell(for product: Product, at indexPath: TableIndexPath) -> TableCell {
        TableCell(.subtitle, ProductCell(product: product))
    }

    /// The detail page of a product, which selecting its row shows.
    static func detailLocation(of product: Product) -> String {
        ProductDetailPage.url(of: product.id)
    }
}
