/// A Datasette on/off parameter's value (`_labels=on`), read as Datasette's `value_as_boolean`
/// reads it: `on`, `true`, `1` and `off`, `false`, `0`, in any case.
enum DatasetteSwitch {
    /// Whether `text` says on; nil when it is none of the spellings.
    static func value(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "on", "true", "1": true
        case "off", "false", "0": false
        default: nil
        }
    }
}
