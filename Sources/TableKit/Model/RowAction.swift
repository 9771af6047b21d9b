/// A named edit or swipe action a row offers, as `UIContextualAction` without the handler.
///
/// The handler is the delegate's ``TableDelegate/performAction(named:forRowAt:values:)``, so that an
/// action posted from a browser (`POST {base}/rows/{row}/actions/{name}`) reaches the same code.
///
///     [RowAction(name: "archive", title: "Archive"), RowAction(name: "delete", title: "Delete", style: .destructive)]
///     RowAction(name: "rename", title: "Rename", field: .init(name: "title", placeholder: "New title", value: todo.title))
///     RowAction(name: "edit", title: "Save", fields: [FormField(name: "title", label: "Title", isRequired: true, defaultValue: todo.title)])
public struct RowAction: Hashable, Sendable {
    /// How an action is presented.
    public enum Style: String, Hashable, Sendable {
        /// A regular action.
        case normal
        /// An action that destroys data; rendered with a warning style.
        case destructive
    }

    /// The action's identifier, used in URLs; stable and URL-friendly.
    public var name: String
    /// The label shown to people.
    public var title: String
    /// The presentation style.
    public var style: Style
    /// A text the person types with the action, e.g. the new title of a "Rename": its name is the
    /// field the delegate receives in `performAction(named:forRowAt:values:)`; nil for none.
    public var field: Field?
    /// The inputs of the action's form (an edit form), rendered with labels; the values the
    /// delegate receives are checked against them (see ``FormField``). Empty for none.
    public var fields: [FormField]

    /// A text input that goes with an action.
    public struct Field: Hashable, Sendable {
        /// The form field's name, the key in the action's values.
        public var name: String
        /// The text shown in the empty input, e.g. "New title".
        public var placeholder: String
        /// The current value, shown in the input to edit.
        public var value: String
        /// The most characters the text may have, counted as ``FormField/maxLength`` counts them;
        /// the input stops typing at it and a longer text is refused. Nil for no bound.
        public var maxLength: Int?

        /// Creates a required text input.
        public init(name: String, placeholder: String, value: String = "", maxLength: Int? = nil) {
            self.name = name
            self.placeholder = placeholder
            self.value = value
            self.maxLength = maxLength
        }

        /// The field as a ``FormField``, for the checks the two share.
        var formField: FormField { FormField(name: name, label: placeholder, maxLength: maxLength) }
    }

    /// Creates an action; give `fields` for a form of several labelled inputs, `field` for one
    /// unlabelled text.
    public init(name: String, title: String, style: Style = .normal, field: Field? = nil, fields: [FormField] = []) {
        self.name = name
        self.title = title
        self.style = style
        self.field = field
        self.fields = fields
    }
}
