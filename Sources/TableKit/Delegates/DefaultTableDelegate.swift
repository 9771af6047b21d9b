// A conformer that implements nothing, so its answers are exactly the protocol defaults.
// Cascading delegates ask it when a call reaches no child, keeping the defaults in one place.
struct DefaultTableDelegate: TableDataSource, TableDelegate, TablePrefetchingDataSource {}
