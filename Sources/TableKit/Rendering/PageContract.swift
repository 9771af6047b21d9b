/// The web contract between a page's HTML and JSON, the service's routes and the browser script:
/// the URLs a page links to and the route patterns that answer them, the form fields and query
/// parameters, the patch events and operations, and the DOM ids of rows and sections.
///
/// The renderer writes these names and the routes read them, both from here, so renaming one
/// renames it everywhere; `Public/table-pages.js` mirrors the patch names and
/// ``domID(forRow:)``'s rule, and `Public/openapi.json` documents them.
///
///     router.on(.post, PageContract.selectPattern, use: select)  // "/pages/:page/rows/:row/select"
///     input.fields[PageContract.Field.title]                        // "title"
public enum PageContract {}
