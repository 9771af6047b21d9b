import TableKit
import TablePages

/// The flat layout of the products page (`?layout=list`): every product in one section.
final class ProductListDataSource: ListDataSource<Product>, VersionedDataSource {
    private let catalog: ProductCatalog

    init(catalog: ProductCatalog) throws {
        self.catalog = catalog
        super.init(models: try catalog.products(), sectionID: "products", title: "All products", cell: ProductCatalog.cell)
    }

    func reloadFromSource() throws {
        models = try catalog.products()
    }

    override func didSelectRow(at indexPath: TableIndexPath) {
        tableContext?.show(ProductCatalog.detailLocation(of: model(at: indexPath)))
    }
}
