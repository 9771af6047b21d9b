import TablePages
import TableStore
/// The examples' database, SQLite's `Store` or a `PostgresStore`: pages observe it (``/TablePages/ObservedSource``)
/// and write to it, through the one value.
typealias ExampleData = any SQLStore & ObservableStore<any SQLSession>
