extension BuiltInFiles: ExpressibleByDictionaryLiteral {
    /// Files written out where they are used:
    ///
    ///     pages.register(publicFiles: ["bookshelf/cover.svg": coverBytes])
    public init(dictionaryLiteral files: (String, [UInt8])...) {
        self.init(Dictionary(files) { _, last in last })
    }
}
