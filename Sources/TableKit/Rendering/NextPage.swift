/// The rows of a section that follow a paged render: what the `next` link asks for.
struct NextPage {
    /// The section being paged.
    var section: SectionID
    /// The last row rendered, nil when none was.
    var after: RowID?
    /// The page size.
    var limit: Int
    /// How many rows follow.
    var remaining: Int
    /// The estimated height of the next row, for the client's placeholder.
    var estimatedRowHeight: TableHeight?
}
