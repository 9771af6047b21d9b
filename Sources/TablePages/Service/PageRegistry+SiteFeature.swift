extension PageRegistry: SiteFeature {
    /// Adds the pages, after those already added (a page of the same name replaces the earlier
    /// one), and the files they use.
    public func add(to site: inout SiteBuilder) {
        for page in pages { site.pages.register(page) }
        site.pages.register(publicFiles: publicFiles)
    }
}
