/// One item of the in-memory checklist example.
struct ChecklistItem: Identifiable, Sendable, Equatable {
    let id: String
    var title: String
    var isDone = false
    var isStarred = false
}
