/// Feeds one walk to two emitters: the first writes into the walk's buffer, the second into
/// its own, so a patch gets a row's HTML and JSON from a single read of the delegate tree.
struct TeeEmitter<First: TableEmitter, Second: TableEmitter>: TableEmitter {
    var first: First
    var second: Second
    var secondOutput = OutputBuffer(capacity: 1024)

    init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    mutating func beginTable(_ heading: TableHeading, into out: inout OutputBuffer) {
        first.beginTable(heading, into: &out)
        second.beginTable(heading, into: &secondOutput)
    }

    mutating func endTable(into out: inout OutputBuffer) {
        first.endTable(into: &out)
        second.endTable(into: &secondOutput)
    }

    mutating func beginSection(_ section: SectionRecord, into out: inout OutputBuffer) {
        first.beginSection(section, into: &out)
        second.beginSection(section, into: &secondOutput)
    }

    mutating func endSection(_ section: SectionRecord, next: NextPage?, into out: inout OutputBuffer) {
        first.endSection(section, next: next, into: &out)
        second.endSection(section, next: next, into: &secondOutput)
    }

    mutating func row(_ row: RowRecord, at indexPath: TableIndexPath, in section: SectionRecord, into out: inout OutputBuffer) {
        first.row(row, at: indexPath, in: section, into: &out)
        second.row(row, at: indexPath, in: section, into: &secondOutput)
    }
}
