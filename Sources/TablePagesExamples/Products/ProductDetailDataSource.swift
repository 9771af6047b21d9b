import TableKit
import TablePages
import TableStore

/// A product's fields as a grouped table of value cells, re-read when the database changes.
final class ProductDetailDataSource: SectionsDataSource<ProductFact>, VersionedDataSource {
    private let store: any SQLStore
    private let productID: Int64
    private var productName: String?

    init(store: any SQLStore, productID: Int64) throws {
        self.store = store
        self.productID = productID
        super.init(models: [], sectionKey: \.group) { fact, _ in
            fact.location == nil
                ? TableCell(.value, CellContent(title: fact.label, detail: fact.value))
                : TableCell(.basic, CellContent(title: fact.label, accessory: .disclosureIndicator))
        }
        try reloadFromSource()
    }

    func reloadFromSource() throws {
        let product = try store.snapshot { db in try Product.find(productID, db) }
        productName = product?.name
        models = product.map(ProductFact.facts(of:)) ?? []
    }

    override func titleForTable() -> String? { productName }

    override func shouldHighlightRow(at indexPath: TableIndexPath) -> Bool {
        model(at: indexPath).location != nil
    }

    override func didSelectRow(at indexPath: TableIndexPath) {
        if let location = model(at: indexPath).location {
            tableContext?.show(location)
        }
    }
}
