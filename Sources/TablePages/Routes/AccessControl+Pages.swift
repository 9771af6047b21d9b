import MicroHTTP

/// The per-page rules (``PageAccess``) on top of the site's actors.
extension AccessControl {
    /// The actor of `request` if it may read `page`. A per-viewer page is never read anonymously.
    /// - Throws: 401 for an anonymous client, 403 for an actor the page's rule refuses.
    func authorizeRead(_ request: Request, page: PageDefinition) throws(HTTPError) -> Actor? {
        let actor = actor(for: request)
        if let refusal = readRefusal(for: actor, page: page) { throw refusal }
        return actor
    }

    /// Whether `actor` may read `page`; the index lists only such pages.
    func mayRead(_ actor: Actor?, page: PageDefinition) -> Bool {
        readRefusal(for: actor, page: page) == nil
    }

    /// Whether `actor` may write `page`; a page shows its action controls only then.
    func mayWrite(_ actor: Actor?, page: PageDefinition) -> Bool {
        writeRefusal(for: actor, page: page) == nil
    }

    func readRefusal(for actor: Actor?, page: PageDefinition) -> HTTPError? {
        if actor == nil, page.perViewer || !page.access.read(nil) {
            return HTTPError(401, "Sign in to see the page \u{201C}\(page.name)\u{201D}: open the sign-in URL the server printed when it started.")
        }
        guard page.access.read(actor) else {
            return HTTPError(403, "You may not see the page \u{201C}\(page.name)\u{201D}.")
        }
        return nil
    }

    /// Why `actor` may not write `page`, or nil when it may: the site's rules (an actor, unless
    /// anonymous writes are on; its write permission and pages), then the page's own.
    func writeRefusal(for actor: Actor?, page: PageDefinition) -> HTTPError? {
        if let refusal = readRefusal(for: actor, page: page) { return refusal }
        // Not "sign in": no actor may write it.
        if page.access.isReadOnly { return HTTPError(403, "The page \u{201C}\(page.name)\u{201D} is read-only.") }
        guard let actor else {
            guard settings.anonymousWrites, page.access.write(nil) else {
                return HTTPError(401, "Sign in to change the page \u{201C}\(page.name)\u{201D}: open the sign-in URL the server printed when it started.")
            }
            return nil
        }
        guard actor.mayWrite(page: page.name), page.access.write(actor) else {
            return HTTPError(403, "You may not change the page \u{201C}\(page.name)\u{201D}.")
        }
        return nil
    }
}
