// A page is written against three modules: TableKit's delegates and cells, this module's pages
// and site, and MicroHTTP's server and files. Re-exporting the other two lets `import TablePages`
// alone give a program everything a page needs; TableKit and MicroHTTP stay products of their own
// for code that wants only a part (a table rendered without a server, a server without pages).
@_exported import MicroHTTP
@_exported import TableKit
