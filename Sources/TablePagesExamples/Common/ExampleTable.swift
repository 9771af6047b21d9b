import TableKit
import TablePages

/// Builds the table of an example page's variant, the same way for every page.
enum ExampleTable {
    /// A table over `root` starting at the variant's version, titled, knowing extra cell kinds.
    static func make(root: any TableRoot, title: String, variant: PageVariant, kinds: [CellKind] = []) -> TableView {
        let table = TableView(root: root, version: variant.initialVersion)
        table.title = title
        for kind in kinds { table.register(kind) }
        return table
    }
}
