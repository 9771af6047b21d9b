/// The database's own version clock and the triggers that advance it and announce changes: what a
/// migration installs so that every writer — TablePages on any instance, `psql`, another program —
/// is seen by every instance's listening connection.
///
///     for statement in PostgresChangeClock.installStatements { try db.execute(statement) }
///     for statement in PostgresChangeClock.watchStatements(table: "todo") { try db.execute(statement) }
///
/// `tablepages_version` holds one row: a counter, from a random start, advanced once per write transaction, by the first
/// statement of that transaction that changes a watched table (it remembers the transaction's id),
/// in the same transaction as the change, so it commits or rolls back with it and a reader sees
/// the counter in the same snapshot as the rows. The statement-level trigger then sends
/// `NOTIFY tablepages, '{"table":"todo","version":42}'`: a small payload, far below PostgreSQL's
/// 8,000-byte cap, delivered only when (and if) the transaction commits.
public enum PostgresChangeClock {
    /// The channel the triggers notify and the listening connection listens on.
    public static let channel = "tablepages"

    /// Creates the counter row and the trigger function; safe to run again.
    public static let installStatements = [
        """
        CREATE TABLE IF NOT EXISTS tablepages_version (
            id integer PRIMARY KEY CHECK (id = 1),
            version bigint NOT NULL,
            txid bigint NOT NULL
        )
        """,
        // A random start (below 2⁴⁰): a database made again does not reuse the versions of the one it
        // replaced, so a client's Last-Event-ID from that one is not taken for a state of this one.
        "INSERT INTO tablepages_version (id, version, txid) VALUES (1, floor(random() * 1099511627776)::bigint, 0) ON CONFLICT (id) DO NOTHING",
        """
        CREATE OR REPLACE FUNCTION tablepages_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        DECLARE
            current_version bigint;
        BEGIN
            -- Once per transaction: concurrent writers queue on this row, so versions follow commit order.
            UPDATE tablepages_version SET version = version + 1, txid = txid_current()
                WHERE id = 1 AND txid <> txid_current()
                RETURNING version INTO current_version;
            IF current_version IS NULL THEN
                SELECT version INTO current_version FROM tablepages_version WHERE id = 1;
            END IF;
            PERFORM pg_notify('\(channel)', json_build_object('table', TG_TABLE_NAME, 'version', current_version)::text);
            RETURN NULL;
        END
        $$
        """,
    ]

    /// Makes writes to `table` advance the clock and notify; safe to run again. `table` is a name
    /// the migration chose, not user input.
    public static func watchStatements(table: String) -> [String] {
        [
            """
            CREATE OR REPLACE TRIGGER tablepages_notify
                AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(table)
                FOR EACH STATEMENT EXECUTE FUNCTION tablepages_notify()
            """
        ]
    }

    /// Whether the clock is installed: reading a missing table would abort the caller's transaction.
    public static let clockExistsQuery = "SELECT to_regclass('tablepages_version') IS NOT NULL"

    /// Reads the clock, in the caller's snapshot.
    public static let currentVersionQuery = "SELECT version FROM tablepages_version WHERE id = 1"
}
