import TableKit
import TablePages

/// The grouped layout of the products page (`?layout=sections`): one section per category, the
/// same rows as the list.
final class ProductSectionsDataSource: SectionsDataSource<Product>, VersionedDataSource {
    private let catalog: ProductCatalog

    init(catalog: ProductCatalog) throws {
        self.catalog = catalog
        super.init(models: try catalog.products(), sectionKey: \.category, cell: ProductCatalog.cell)
    }

    func reloadFromSource() throws {
        models = try catalog.products()
    }

    override func didSelectRow(at indexPath: TableIndexPath) {
        tableContext?.show(ProductCatalog.detailLocation(of: model(at: indexPath)))
    }
}
