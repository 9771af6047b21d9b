/// The web contract between a page's HTML and JSON, the service's routes and the browser script:
/// the URLs a page links to, the form fields and query parameters, the patch events and
/// operations, and the DOM ids of rows and sections. (TablePages joins its route patterns from the
/// same path pieces.)
///
/// The renderer writes these names and the routes read them, both from here, so renaming one
/// renames it everywhere; `Public/table-pages.js` mirrors the patch names and
/// ``domID(forRow:)``'s rule, and `Public/openapi.json` documents them.
///
///     input.fields[PageContract.Field.title]                        // "title"
public enum PageContract {}
