/// One input of a form the library renders: the add form of a section
/// (``TableDataSource/fieldsForInserting(inSection:)``) or the form of a row action
/// (``RowAction/fields``). Each is written with a visible label, shown only to viewers who may
/// write, and works without a script (a plain POST and a redirect).
///
/// Before a commit or an action reaches your code, the submitted values are checked against the
/// fields with ``checkedValues(_:against:)``: a required field left empty, an integer that is not
/// one or a text past its length is refused with a ``FormFieldProblem`` (a 400 naming the field),
/// and the values that arrive hold only the declared fields, in the forms described on ``Kind``.
///
///     [FormField(name: "title", label: "Title", isRequired: true, maxLength: 200),
///      FormField(name: "author", label: "Author"),
///      FormField(name: "pages", label: "Pages", kind: .integer),
///      FormField(name: "shelf", label: "Shelf", kind: .choice(["to read", "reading", "done"]), defaultValue: "to read")]
public struct FormField: Hashable, Sendable {
    /// What a field holds, which decides its input and how its value is checked.
    public enum Kind: Hashable, Sendable {
        /// One line of text, as typed.
        case text
        /// Several lines of text (a `textarea`), as typed.
        case longText
        /// A whole number; arrives in decimal digits with an optional `-` (`"-12"`).
        case integer
        /// A finite number; arrives as Swift's `Double` writes it (`"2.5"`).
        case number
        /// A calendar date; arrives as `YYYY-MM-DD`.
        case date
        /// A checkbox; arrives as `"true"` or `"false"`, and is never missing.
        case checkbox
        /// One of these texts, offered in a list; arrives as the text chosen.
        case choice([String])
    }

    /// The form field's name: the key its value arrives under.
    public var name: String
    /// The label shown beside the input, and named in its problems.
    public var label: String
    /// What the field holds.
    public var kind: Kind
    /// Whether a value must be given (a checkbox is never missing, so this does not apply to one).
    public var isRequired: Bool
    /// The value the input starts with, and the one that arrives when an optional field is left
    /// empty; for a checkbox, `"true"` starts it checked.
    public var defaultValue: String
    /// The most characters a text may have, counted as a browser counts them for `maxlength`: in
    /// UTF-16 code units, so most characters count one and an emoji or another character outside
    /// the Basic Multilingual Plane counts two, and a line break counts one (see
    /// ``length(of:)``). The input says the limit in words and stops typing at it; the server
    /// refuses a longer text (a script's) rather than cut it. Nil for no bound of the field's own.
    public var maxLength: Int?

    /// Creates a field.
    public init(
        name: String, label: String, kind: Kind = .text, isRequired: Bool = false,
        defaultValue: String = "", maxLength: Int? = nil
    ) {
        self.name = name
        self.label = label
        self.kind = kind
        self.isRequired = isRequired
        self.defaultValue = defaultValue
        self.maxLength = maxLength
    }
}
