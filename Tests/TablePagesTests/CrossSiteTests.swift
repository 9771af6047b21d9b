import HostileTextSupport
import MicroHTTP
import PropertyBased
import TableKit
@testable import TablePagesTestSupport
import Testing
@testable import TablePages

@Suite("Host allow list")
struct HostAllowListTests {
    @Test("Loopback names are allowed with any port and any case; other names are not")
    func loopbackDefaults() {
        let hosts = HostAllowList(HostAllowList.loopbackNames)
        for allowed in ["localhost", "LocalHost:8080", "127.0.0.1", "127.0.0.1:1", "[::1]", "[::1]:8080", "localhost."] {
            #expect(hosts.allows(hostHeader: allowed), "\(allowed)")
        }
        for refused in ["evil.example", "evil.example:8080", "localhost.evil.example", "127.0.0.2", "app.localhost", "", "localhost:http", "[::1]x"] {
            #expect(!hosts.allows(hostHeader: refused), "\(refused)")
        }
        #expect(!hosts.allows(hostHeader: nil))
    }

    @Test("Patterns allow every name under a domain but not the domain's look-alikes; * allows any host")
    func patterns() {
        let hosts = HostAllowList(["*.tables.example", "Extra.Example"])
        #expect(hosts.allows(hostHeader: "a.tables.example:80"))
        #expect(hosts.allows(hostHeader: "extra.example"))
        #expect(!hosts.allows(hostHeader: "tables.example"))
        #expect(!hosts.allows(hostHeader: "eviltables.example"))
        #expect(!hosts.allows(hostHeader: ".tables.example"))
        #expect(HostAllowList(["*"]).allows(hostHeader: "evil.example"))
    }

    @Test("A server on every interface answers for the loopback names; one on an address also for that address")
    func defaultsByListeningAddress() {
        #expect(HostAllowList.defaultNames(listeningOn: "0.0.0.0") == HostAllowList.loopbackNames)
        #expect(HostAllowList.defaultNames(listeningOn: "::") == HostAllowList.loopbackNames)
        #expect(HostAllowList.defaultNames(listeningOn: "127.0.0.1") == HostAllowList.loopbackNames)
        #expect(HostAllowList.defaultNames(listeningOn: "192.0.2.7") == HostAllowList.loopbackNames + ["192.0.2.7"])
        #expect(HostAllowList(HostAllowList.defaultNames(listeningOn: "2001:db8::7")).allows(hostHeader: "[2001:DB8::7]:8080"))
    }

    @Test("A refused Host gets 421 naming the host and the option; the health checks answer any Host, and a request without Host passes")
    func refusal() throws {
        let hosts = HostAllowList(HostAllowList.loopbackNames)
        let refused = try #require(hosts.refusal(for: CrossSiteFixtures.request(.get, "/pages/todo", headers: ["Host": "evil.example", "Accept": "application/json"])))
        #expect(refused.status == 421)
        let body = String(decoding: refused.bodyBytes, as: UTF8.self)
        #expect(body.contains("evil.example") && body.contains("--allowed-host"))
        #expect(hosts.refusal(for: CrossSiteFixtures.request(.get, "/pages/todo", headers: ["Host": ""]))?.status == 421)
        #expect(hosts.refusal(for: CrossSiteFixtures.request(.get, "/pages/todo", headers: [:])) == nil, "no Host: no browser")
        #expect(hosts.refusal(for: CrossSiteFixtures.request(.get, "/healthz", headers: ["Host": "10.0.0.5:8080"])) == nil)
        #expect(hosts.refusal(for: CrossSiteFixtures.request(.get, "/pages/todo", headers: ["Host": "localhost:8080"])) == nil)
    }

    @Test("Hostile Host values never crash the parser and are allowed only when their host is the allowed one")
    func hostileHosts() async {
        let hosts = HostAllowList(["tables.example"])
        await propertyCheckFailingOnThrow(input: CrossSiteFixtures.headerValue) { header in
            guard hosts.allows(hostHeader: header) else { return }
            // Allowed: the header is exactly the name, in any ASCII case, with an optional
            // trailing dot and an optional port of up to five digits.
            var rest = Substring(header)
            #expect(rest.lowercased().hasPrefix("tables.example"), "allowed \(header)")
            rest = rest.dropFirst("tables.example".count)
            if rest.first == "." { rest = rest.dropFirst() }
            if rest.first == ":" { rest = rest.dropFirst() }
            #expect(rest.count <= 5 && rest.allSatisfy(\.isASCII) && rest.allSatisfy(\.isNumber), "allowed \(header)")
        }
    }
}

@Suite("Cross-site writes")
struct CrossSiteCheckTests {
    let check = CrossSiteCheck(corsOrigins: CORSPolicy(["https://app.example"]))

    func verdict(_ headers: HTTPHeaders) -> Int? {
        do {
            try check.check(CrossSiteFixtures.request(headers: headers))
            return nil
        } catch {
            return error.status
        }
    }

    @Test("A write whose Origin is the request's own host, or a listed origin, passes")
    func sameOriginPasses() {
        #expect(verdict(["Host": "127.0.0.1:8080", "Origin": "http://127.0.0.1:8080"]) == nil)
        #expect(verdict(["Host": "Tables.Example", "Origin": "https://tables.example"]) == nil)
        #expect(verdict(["Host": "tables.example:443", "Origin": "https://tables.example"]) == nil)
        #expect(verdict(["Host": "127.0.0.1:8080", "Origin": "https://app.example"]) == nil)
        #expect(verdict(["Host": "127.0.0.1:8080", "Origin": "https://APP.example:443"]) == nil)
    }

    @Test("A write from another origin gets 403: another host, another port, null, or garbage")
    func crossOriginRefused() {
        for origin in ["http://evil.example", "http://127.0.0.1:9090", "http://127.0.0.1", "null", "", "http://127.0.0.1:8080/x", "http://u@127.0.0.1:8080"] {
            #expect(verdict(["Host": "127.0.0.1:8080", "Origin": origin]) == 403, "\(origin)")
        }
        #expect(verdict(["Origin": "http://127.0.0.1:8080"]) == 403, "no Host to compare with")
    }

    @Test("Without Origin, Sec-Fetch-Site decides; with neither header the client is no browser and passes")
    func fetchMetadata() {
        #expect(verdict(["Host": "h", "Sec-Fetch-Site": "same-origin"]) == nil)
        #expect(verdict(["Host": "h", "Sec-Fetch-Site": "none"]) == nil)
        #expect(verdict(["Host": "h", "Sec-Fetch-Site": "same-site"]) == 403)
        #expect(verdict(["Host": "h", "Sec-Fetch-Site": "cross-site"]) == 403)
        #expect(verdict(["Host": "h"]) == nil)
    }

    @Test("Hostile Origin values never crash the check and match only the request's own origin")
    func hostileOrigins() async {
        await propertyCheckFailingOnThrow(input: CrossSiteFixtures.headerValue) { value in
            let origin = "http://" + value
            guard CrossSiteCheck.isSameOrigin(origin, host: "tables.example:8080") else { return }
            #expect(origin.lowercased() == "http://tables.example:8080" || origin.lowercased() == "http://tables.example.:8080", "accepted \(origin)")
        }
        await propertyCheckFailingOnThrow(input: CrossSiteFixtures.headerValue) { value in
            #expect(!CrossSiteCheck.isSameOrigin(value, host: "tables.example:8080") || value.lowercased().hasPrefix("http"))
        }
    }
}

@Suite("CORS")
struct CORSPolicyTests {
    let cors = CORSPolicy(["https://app.example", "http://localhost:3000"])

    @Test("A preflight to a page from a listed origin is answered with that origin and credentials, never *")
    func listedPreflight() throws {
        let request = CrossSiteFixtures.request(.options, headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "POST"])
        let answer = try #require(cors.preflight(request))
        #expect(answer.status == 204)
        #expect(answer.headers["Access-Control-Allow-Origin"] == "https://app.example")
        #expect(answer.headers["Access-Control-Allow-Credentials"] == "true")
        #expect(answer.headers["Access-Control-Allow-Headers"]?.contains("X-CSRF-Token") == true)
        #expect(answer.headers["Vary"] == "Origin")
    }

    @Test("Preflights from other origins, or outside the pages, are left to the router")
    func otherPreflights() {
        #expect(cors.preflight(CrossSiteFixtures.request(.options, headers: ["Origin": "https://evil.example", "Access-Control-Request-Method": "POST"])) == nil)
        #expect(cors.preflight(CrossSiteFixtures.request(.options, "/metrics", headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "GET"])) == nil)
        #expect(cors.preflight(CrossSiteFixtures.request(.options, headers: ["Origin": "https://app.example"])) == nil)
    }

    @Test("Responses name a listed origin with credentials; others only vary by Origin")
    func decorate() {
        var listed = Response.json("{}")
        cors.decorate(&listed, for: CrossSiteFixtures.request(.get, headers: ["Origin": "http://localhost:3000"]))
        #expect(listed.headers["Access-Control-Allow-Origin"] == "http://localhost:3000")
        #expect(listed.headers["Access-Control-Allow-Credentials"] == "true")
        var other = Response.json("{}")
        other.headers["Vary"] = "Accept"
        cors.decorate(&other, for: CrossSiteFixtures.request(.get, headers: ["Origin": "http://evil.example"]))
        #expect(other.headers["Access-Control-Allow-Origin"] == nil)
        #expect(other.headers["Vary"] == "Accept, Origin")
        var untouched = Response.json("{}")
        CORSPolicy([]).decorate(&untouched, for: CrossSiteFixtures.request(.get, headers: ["Origin": "http://localhost:3000"]))
        #expect(untouched.headers["Vary"] == nil && untouched.headers["Access-Control-Allow-Origin"] == nil)
    }

    @Test("Origins are compared normalized; malformed ones are not listed")
    func normalizing() {
        #expect(CORSPolicy.normalized("HTTPS://App.Example:443") == "https://app.example")
        #expect(CORSPolicy.normalized("http://localhost:3000") == "http://localhost:3000")
        #expect(CORSPolicy.normalized("*") == nil)
        #expect(CORSPolicy.normalized("https://app.example/path") == nil)
        #expect(!CORSPolicy(["*"]).allows(origin: "https://evil.example"))
    }
}

@Suite("CSRF tokens and action bodies")
struct CSRFAndBodyTests {
    @Test("A write passes with the session's token in the header or the form, and gets 403 without it or with another")
    func csrfCheck() {
        func status(_ headers: HTTPHeaders, body: String = "") -> Int? {
            do {
                try CSRFCheck.check(CrossSiteFixtures.request(headers: headers, body: body), expected: "tok-EN_1")
                return nil
            } catch {
                return error.status
            }
        }
        #expect(status(["X-CSRF-Token": "tok-EN_1"]) == nil)
        #expect(status(["Content-Type": "application/x-www-form-urlencoded"], body: "a=1&_csrf=tok-EN_1") == nil)
        #expect(status([:]) == 403)
        #expect(status(["X-CSRF-Token": "tok-EN_2"]) == 403)
        #expect(status(["X-CSRF-Token": "tok-EN_"]) == 403)
        #expect(status(["Content-Type": "text/plain"], body: "_csrf=tok-EN_1") == 403)
    }

    func parse(_ contentType: String?, _ body: String) -> Result<ActionInput, HTTPError> {
        var headers: HTTPHeaders = [:]
        if let contentType { headers["Content-Type"] = contentType }
        return Result { () throws(HTTPError) in try ActionInput.parse(CrossSiteFixtures.request(headers: headers, body: body)) }
    }

    @Test("JSON is read only as application/json; text/plain, no type, or JSON labelled as a form get 415")
    func bodyTypes() throws {
        #expect(try parse("application/json; charset=utf-8", #"{"title":"x"}"#).get().values == ["title": "x"])
        #expect(try parse("application/x-www-form-urlencoded", "title=x").get().isForm)
        for (type, body) in [("text/plain", #"{"title":"x"}"#), (nil, #"{"title":"x"}"#), ("application/x-www-form-urlencoded", #" {"title":"x"}"#),
                             ("multipart/form-data; boundary=x", "--x"), ("application/jsonp", "{}")] as [(String?, String)] {
            guard case .failure(let error) = parse(type, body) else {
                Issue.record("\(type ?? "no type") was accepted")
                continue
            }
            #expect(error.status == 415)
        }
        #expect(try parse("text/plain", "").get().fields.isEmpty, "an empty body is no body of the wrong type")
    }

    @Test("The CSRF field reaches no delegate")
    func csrfFieldIsNoValue() throws {
        #expect(try parse("application/x-www-form-urlencoded", "title=x&_csrf=t&_method=DELETE").get().values == ["title": "x"])
    }

    @Test("A viewer's token goes into the head of a cached page, escaped, and nowhere else")
    func metaTag() {
        let page = Array((PageDocument.opening + "<title>t</title></head><body>x</body></html>").utf8)
        let withToken = String(decoding: PageDocument.withCSRFToken(page, "a\"b"), as: UTF8.self)
        #expect(withToken == PageDocument.opening + "<meta name=\"csrf-token\" content=\"a&quot;b\"><title>t</title></head><body>x</body></html>")
        #expect(PageDocument.withCSRFToken(Array("{}".utf8), "t") == Array("{}".utf8))
    }
}
