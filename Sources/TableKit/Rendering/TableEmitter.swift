/// Receives one walk of the table and writes it in one format.
///
/// The walker reads the delegate tree once; emitters only write. Calls arrive in document
/// order: `beginTable`, then per section `beginSection`, `row`…, `endSection`, then `endTable`.
/// A section or row may also be emitted on its own.
protocol TableEmitter {
    mutating func beginTable(_ heading: TableHeading, into out: inout OutputBuffer)
    mutating func endTable(into out: inout OutputBuffer)
    mutating func beginSection(_ section: SectionRecord, into out: inout OutputBuffer)
    mutating func endSection(_ section: SectionRecord, next: NextPage?, into out: inout OutputBuffer)
    mutating func row(_ row: RowRecord, at indexPath: TableIndexPath, in section: SectionRecord, into out: inout OutputBuffer)
    /// Emits a row of a section with uniform rows (``TableDataSource/hasUniformRows(inSection:)``)
    /// as `template`, an earlier row of it, with the id `id` and the fields `fields` writes; false,
    /// having written nothing, when the emitter needs the row's cell itself.
    mutating func row(
        like template: RowRecord, id: RowID, at indexPath: TableIndexPath, in section: SectionRecord, into out: inout OutputBuffer,
        fields: (inout JSONFieldWriter) -> Void
    ) -> Bool
}

extension TableEmitter {
    /// Default: false, the row is emitted from its record.
    mutating func row(
        like template: RowRecord, id: RowID, at indexPath: TableIndexPath, in section: SectionRecord, into out: inout OutputBuffer,
        fields: (inout JSONFieldWriter) -> Void
    ) -> Bool {
        false
    }
}
