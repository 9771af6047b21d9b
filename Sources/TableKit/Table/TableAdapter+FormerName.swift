/// The former name of ``TableAdapter``, which is not a view but what stands between a delegate
/// tree and its renders.
@available(*, deprecated, renamed: "TableAdapter")
public typealias TableView = TableAdapter
