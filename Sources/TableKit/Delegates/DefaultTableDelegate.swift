// A conformer that implements nothing, so its answers are exactly the protocol defaults: the
// cascading delegates' routing asks it when a call reaches no child, so the defaults are stated
// once, in the `+Defaults` extensions.
struct DefaultTableDelegate: TableDataSource, TableDelegate, TablePrefetchingDataSource {}
