import TablePages
import TablePagesDatabase

/// The products page: one page, two layouts of the same rows. `?layout=list` shows a flat list,
/// `?layout=sections` groups by category; a price changed in the database shows up live in both,
/// and each product's row is a link to its detail page.
enum ProductsPage {
    static func definition(data: ExampleData) -> PageDefinition {
        PageDefinition(
            name: "products", title: "Products", summary: "Two layouts of one source: a flat list or sections by category.",
            variants: ["layout": ["list", "sections"]],
            // Its rows are links, for everyone: nothing on it changes through the web.
            access: .everyoneReads
        ) { variant in
            let byCategory = variant["layout"] == "sections"
            return ObservedSource(data, fetch: Product.all, kind: .subtitle, section: { product in
                byCategory ? (id: product.category, title: product.category) : (id: "products", title: "All products")
            }) { product in
                CellContent(ProductCell(product: product))
            } link: { product in
                ProductDetailPage.url(of: product.id)
            }
        }
    }
}
