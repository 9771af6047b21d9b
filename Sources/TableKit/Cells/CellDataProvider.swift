/// What a cell shows, read by a reusable cell kind without knowing the model behind it.
///
/// One cell kind displays users and pets alike: each model is adapted by a small provider struct.
///
///     struct PetCell: CellDataProvider {
///         let pet: Pet
///         var title: String? { pet.name }
///         var subtitle: String? { pet.species }
///     }
///     TableCell(.subtitle, PetCell(pet: rex))
///
/// Implementation requirements: return the same values for the same model state; the values are
/// copied into a ``CellContent`` whose equality decides whether a reloaded row is sent again.
/// Every requirement except ``title`` has a default of "nothing to show".
public protocol CellDataProvider {
    /// The main text.
    var title: String? { get }
    /// Secondary text under the title.
    var subtitle: String? { get }
    /// Text at the trailing edge (the right detail of UIKit's value style).
    var detail: String? { get }
    /// The trailing accessory.
    var accessory: CellAccessory { get }
    /// The leading image.
    var image: CellImage? { get }
    /// A short count or status shown as a badge.
    var badge: String? { get }
    /// Extra values for custom cell kinds.
    var fields: [CellField] { get }
    /// Typed values for scripts, written by JSON output as members of the row's object beside its
    /// display text, and not shown in HTML: a to-do's `"done": true` beside its "done" subtitle.
    ///
    ///     var jsonProperties: [JSONProperty] { [JSONProperty(name: "done", value: .bool(todo.isDone))] }
    ///
    /// A name the row's object already has (`id`, `title`, `fields`, …) is not written.
    var jsonProperties: [JSONProperty] { get }
}

extension CellDataProvider {
    /// No subtitle.
    public var subtitle: String? { nil }
    /// No detail.
    public var detail: String? { nil }
    /// No accessory.
    public var accessory: CellAccessory { .none }
    /// No image.
    public var image: CellImage? { nil }
    /// No badge.
    public var badge: String? { nil }
    /// No extra fields.
    public var fields: [CellField] { [] }
    /// No typed values.
    public var jsonProperties: [JSONProperty] { [] }
}
