// A database-backed page is written against this module and TablePages: re-exporting TableStore
// lets `import TablePagesDatabase` name the store (`Store`, `SQLSession`, `SQLValue`, `Migrations`)
// without a third import.
@_exported import TableStore
