import TablePages

/// The example pages `tablepages serve` shows out of the box.
public enum ExamplePages {
    /// Registers every example page.
    public static func register(in registry: inout PageRegistry) {
        registry.register(ChecklistPage.definition())
    }
}
