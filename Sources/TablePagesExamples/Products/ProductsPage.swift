import TableKit
import TablePages

/// The products page: one page, two dedicated data sources. `?layout=list` shows a flat list,
/// `?layout=sections` groups by category; the rows are the same, and a price changed in the
/// database shows up live in both.
enum ProductsPage {
    static func definition(catalog: ProductCatalog, changes: ChangeFeed) -> PageDefinition {
        PageDefinition(
            name: "products", title: "Products", summary: "Dedicated data sources: a flat list or sections by category.",
            variants: ["layout": ["list", "sections"]], changes: changes
        ) { variant in
            variant["layout"] == "sections"
                ? try ProductSectionsDataSource(catalog: catalog)
                : try ProductListDataSource(catalog: catalog)
        }
    }
}
