import MicroHTTP

/// The browser files of every TablePages site, compiled in from `Public/` at build time (by the
/// EmbedPublicFiles plugin), so that a site serves them from any working directory.
public enum SiteAssets {
    /// `table-pages.js`, `table-pages-live.js` (the shared live stream's worker), `table-pages.css`, `favicon.svg` and `openapi.json`, by path under `/public/`.
    public static let files = BuiltInFiles(base64Encoded: generatedPublicFiles)
}
