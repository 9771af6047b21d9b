import TableKit

/// Adapts a product to the reusable subtitle cell: name, summary, price, and a chevron saying
/// that selecting the row leads to its detail.
struct ProductCell: CellDataProvider {
    let product: Product

    var title: String? { product.name }
    var subtitle: String? { product.summary }
    var detail: String? { product.formattedPrice }
    var accessory: CellAccessory { .disclosureIndicator }
    var badge: String? { product.stock < 5 ? "only \(product.stock) left" : nil }
}
