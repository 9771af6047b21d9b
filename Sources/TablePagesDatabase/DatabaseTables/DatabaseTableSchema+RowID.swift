import TableStore

extension DatabaseTableSchema {
    /// The row id of the row whose key has `values`: the rowid's decimal number (or a single
    /// integer key's), else the key's values encoded (`DatabaseValueCoding`).
    func rowID(ofKey values: some Collection<SQLValue>) -> String {
        if keyIsRowID, case .integer(let rowid)? = values.first {
            return String(rowid)
        }
        return DatabaseValueCoding.encode(Array(values))
    }

    /// The key values a row id encodes, or nil when it is not a row id of this table.
    func key(ofRowID id: String) -> [SQLValue]? {
        if keyIsRowID {
            return Int64(id).map { [.integer($0)] }
        }
        return DatabaseValueCoding.decode(id, count: key.count)
    }
}
