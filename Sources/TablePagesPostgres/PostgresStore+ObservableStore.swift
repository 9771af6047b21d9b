import TablePages
import TablePagesDatabase
import TableStorePostgres

// A PostgreSQL store is data pages observe, itself, as SQLite's `Store` is (TablePagesDatabase).
extension PostgresStore: ObservableStore {}
