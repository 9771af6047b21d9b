/// A root delegate whose rows come from outside the process's memory, such as a database, and
/// can be read again when its page's ``ChangeFeed`` reports a change: a database table's page.
/// Pages of your own use ``ObservedSource``, which also reads the data's version.
///
/// Implementation requirements: ``reloadFromSource()`` replaces the delegate's data without
/// reporting updates itself; the page's host then compares the table with what it last sent and
/// publishes the differences (unchanged rows produce nothing). A root that is not reloadable is
/// compared all the same, for delegates that read shared data as they answer.
package protocol ReloadableDataSource: AnyObject {
    /// Reads the current data again.
    func reloadFromSource() throws
}
