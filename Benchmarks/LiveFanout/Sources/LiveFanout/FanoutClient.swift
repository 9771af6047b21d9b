import CEpoll
import Glibc

/// One Server-Sent Events subscription.
struct Subscriber {
    enum Phase {
        case connecting  // connect() under way, request not yet (fully) sent
        case awaitingHeaders  // request sent, response head not complete
        case awaitingFirstBody  // 200 received, the stream's first line (`retry:`) not yet
        case ready  // subscribed and idle
        case closed  // failed, or closed by the server; see `failure`
    }

    var fd: Int32 = -1
    var phase = Phase.connecting
    var sent = 0  // bytes of the request sent
    var head: [UInt8] = []  // the response so far, until its head is complete
    var tail: [UInt8] = []  // the last few body bytes, for needles that straddle two reads
    var patchAt: UInt64?  // monotonic time at which `event: patch` was read
    var failure: String?
    var wasReady = false
}

/// The single-threaded epoll client that opens the subscribers, sends the select and times the patch.
final class FanoutClient {
    static let eventStreamMarker = Array("retry:".utf8)
    static let patchMarker = Array("event: patch".utf8)
    static let resetMarker = Array("event: reset".utf8)
    static let headEnd = Array("\r\n\r\n".utf8)
    static let keptTail = max(eventStreamMarker.count, patchMarker.count, resetMarker.count) - 1
    static let selectToken = UInt64.max

    let options: Options
    let address: sockaddr_in
    let actionAddress: sockaddr_in  // where the select(s) go: --action-port, else --port
    let request: [UInt8]
    let epoll: Int32
    var subscribers: [Subscriber] = []
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var events = [epoll_event](repeating: epoll_event(), count: 1024)

    var readyCount = 0
    var patchCount = 0
    var patchesBeforeSelect = 0
    var closedAfterReady = 0  // subscribed, then closed by the server
    var closedBeforePatch = 0  // of those, the ones that had not had the patch

    // The select request's own connection.
    var selectFD: Int32 = -1
    var selectRequest: [UInt8]
    var selectSent = 0
    var selectSentAt: UInt64?
    var selectResponse: [UInt8] = []
    var selectAnsweredAt: UInt64?
    var selectFailure: String?

    init(options: Options) {
        self.options = options
        address = loopbackAddress(port: options.port)
        actionAddress = loopbackAddress(port: options.actionPort ?? options.port)
        request = Array(
            "GET /pages/\(options.page)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        selectRequest = Array(
            ("POST /pages/\(options.page)/rows/\(options.row)/select HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Length: 0\r\nAccept: application/json\r\nConnection: close\r\n\r\n").utf8)
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1: \(errorText(errno))")
    }

    /// The loopback address subscriber `index` connects from: 127.0.0.2 for the first
    /// `perAddress`, 127.0.0.3 for the next, and so on; nil (the kernel's choice, 127.0.0.1) when
    /// `perAddress` is 0.
    func sourceAddress(of index: Int) -> UInt32? {
        guard options.perAddress > 0 else { return nil }
        return 0x7F00_0002 + UInt32(index / options.perAddress)
    }

    // MARK: Phases

    /// Opens subscribers `range`, then services the sockets until each has its response head
    /// and first body bytes, or failed, or `timeout` seconds have passed.
    func openBatch(_ range: Range<Int>, timeout: Double) {
        for index in range {
            subscribers.append(Subscriber())
            switch startConnect(to: address, from: sourceAddress(of: index)) {
            case .failure(let error):
                fail(index, error.description)
            case .success(let (fd, connected)):
                subscribers[index].fd = fd
                register(fd, token: UInt64(index), events: EPOLLOUT.rawValue | EPOLLIN.rawValue, op: EPOLL_CTL_ADD)
                if connected { sendRequest(index) }
            }
        }
        let deadline = monotonicNanoseconds() + UInt64(timeout * 1e9)
        pump(until: deadline) { 
            range.allSatisfy { subscribers[$0].phase == .ready || subscribers[$0].phase == .closed }
        }
        for index in range where subscribers[index].phase != .ready && subscribers[index].phase != .closed {
            let what: String
            switch subscribers[index].phase {
            case .connecting: what = "connect or request send"
            case .awaitingHeaders: what = "response headers"
            default: what = "the first body bytes (retry:)"
            }
            fail(index, "no \(what) within \(timeout) s")
        }
    }

    /// Services the sockets for `seconds` (heartbeats, closes) without waiting for anything.
    func idle(seconds: Double) {
        pump(until: monotonicNanoseconds() + UInt64(seconds * 1e9)) { false }
    }

    /// Sends the select on a connection of its own and waits until every subscribed stream has
    /// `event: patch`, or `timeout` seconds have passed since the request was sent.
    func selectAndWait(timeout: Double) {
        switch startConnect(to: actionAddress) {
        case .failure(let error):
            selectFailure = error.description
            return
        case .success(let (fd, connected)):
            selectFD = fd
            register(fd, token: Self.selectToken, events: EPOLLOUT.rawValue | EPOLLIN.rawValue, op: EPOLL_CTL_ADD)
            if connected { sendSelect() }
        }
        // Connecting should take microseconds; the clock starts when the request is sent.
        pump(until: monotonicNanoseconds() + UInt64(timeout * 1e9)) {
            selectSentAt != nil || selectFailure != nil
        }
        guard let sentAt = selectSentAt else {
            if selectFailure == nil { selectFailure = "could not send the select within \(timeout) s" }
            return
        }
        pump(until: sentAt + UInt64(timeout * 1e9)) {
            subscribersWaiting == 0 && selectAnsweredAt != nil
        }
    }

    /// Subscribers still open that have not yet had the patch (in a sequence of writes, the
    /// current write's patch).
    var subscribersWaiting: Int {
        if currentWrite >= 0 { return max(0, readyCount - closedAfterReady - arrivedForCurrent) }
        return readyCount - patchCount - closedBeforePatch
    }

    // MARK: A sequence of writes (--writes, --action-port)

    /// The write whose patches arrive now; -1 before the first (and in single-select mode).
    var currentWrite = -1
    var writeSentAts: [UInt64] = []
    var writeAnsweredAts: [UInt64?] = []
    var writeStatusLines: [String?] = []
    var writeFailures: [String?] = []
    /// `arrivals[write * subscribers.count + index]`: when subscriber `index` read its first
    /// `event: patch` after `write` was sent (0: none before the next write was sent).
    var arrivals: [UInt64] = []
    var arrivedForCurrent = 0  // open subscribers that have the current write's patch
    var extraPatches = 0  // patches beyond the first a subscriber read in one write's window
    var strayPatches = 0  // patches read during a sequence before its first POST was sent
    var resetEvents = 0  // `event: reset`: the server dropped the stream (buffer limit)

    /// Sends `count` selects one after another, each on a connection of its own to the action
    /// port. Write k+1 is sent once every open subscriber has write k's patch and write k's
    /// response has arrived (or `timeout` seconds passed since it was sent), and no sooner than
    /// `interval` milliseconds after write k was sent. So the windows never overlap, and a
    /// subscriber's first patch in write k's window is write k's patch.
    func runWrites(count: Int, interval: Double, timeout: Double) {
        arrivals = Array(repeating: 0, count: count * subscribers.count)
        for write in 0..<count {
            if selectFD >= 0 {
                close(selectFD)
                selectFD = -1
            }
            selectSent = 0
            selectSentAt = nil
            selectResponse = []
            selectAnsweredAt = nil
            selectFailure = nil
            arrivedForCurrent = 0
            currentWrite = write
            selectAndWait(timeout: timeout)
            writeSentAts.append(selectSentAt ?? 0)
            writeAnsweredAts.append(selectAnsweredAt)
            writeStatusLines.append(selectStatusLine)
            writeFailures.append(selectFailure)
            if let sentAt = selectSentAt {
                idle(until: sentAt + UInt64(interval * 1e6))
            }
        }
        if selectFD >= 0 {
            close(selectFD)
            selectFD = -1
        }
    }

    /// Services the sockets until `deadline` (monotonic nanoseconds).
    func idle(until deadline: UInt64) {
        pump(until: deadline) { false }
    }

    var openCount: Int {
        subscribers.reduce(0) { $0 + ($1.phase == .ready ? 1 : 0) }
    }

    /// The failures so far, grouped by reason, most frequent first.
    var failureSummary: [(reason: String, count: Int)] {
        var counts: [String: Int] = [:]
        for subscriber in subscribers { if let reason = subscriber.failure { counts[reason, default: 0] += 1 } }
        return counts.map { ($0.key, $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.reason < $1.reason }
    }

    // MARK: Event loop

    /// Runs epoll_wait and handles events until `done()` or `deadline`.
    func pump(until deadline: UInt64, done: () -> Bool) {
        while !done() {
            let now = monotonicNanoseconds()
            guard now < deadline else { return }
            let waitMilliseconds = Int32(min((deadline - now + 999_999) / 1_000_000, 100))
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epoll, $0.baseAddress, Int32($0.count), waitMilliseconds)
            }
            if count < 0 {
                if errno == EINTR { continue }
                fatalError("epoll_wait: \(errorText(errno))")
            }
            for slot in 0..<Int(count) {
                let token = events[slot].data.u64
                let flags = events[slot].events
                if token == Self.selectToken {
                    handleSelect(flags)
                } else {
                    handle(Int(token), flags)
                }
            }
        }
    }

    private func register(_ fd: Int32, token: UInt64, events: UInt32, op: Int32) {
        var event = epoll_event()
        event.events = events
        event.data.u64 = token
        if epoll_ctl(epoll, op, fd, &event) != 0 {
            fatalError("epoll_ctl: \(errorText(errno))")
        }
    }

    private func handle(_ index: Int, _ flags: UInt32) {
        guard subscribers[index].phase != .closed else { return }
        if subscribers[index].phase == .connecting {
            if flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 {
                let code = socketError(subscribers[index].fd)
                fail(index, code != 0 ? "connect: \(errorText(code))" : "connection closed while connecting")
                return
            }
            if flags & EPOLLOUT.rawValue != 0 {
                let code = socketError(subscribers[index].fd)
                if code != 0 {
                    fail(index, "connect: \(errorText(code))")
                    return
                }
                sendRequest(index)
            }
        }
        if flags & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0, subscribers[index].phase != .closed {
            receive(index)
        }
    }

    private func sendRequest(_ index: Int) {
        let fd = subscribers[index].fd
        while subscribers[index].sent < request.count {
            let sent = request.withUnsafeBytes { bytes in
                send(fd, bytes.baseAddress! + subscribers[index].sent, bytes.count - subscribers[index].sent, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }  // EPOLLOUT again later
                fail(index, "send: \(errorText(errno))")
                return
            }
            subscribers[index].sent += sent
        }
        subscribers[index].phase = .awaitingHeaders
        register(fd, token: UInt64(index), events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue, op: EPOLL_CTL_MOD)
    }

    private func receive(_ index: Int) {
        let fd = subscribers[index].fd
        while subscribers[index].phase != .closed {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                fail(index, "recv: \(errorText(errno))")
                return
            }
            if count == 0 {
                switch subscribers[index].phase {
                case .ready, .closed: fail(index, "closed by the server while subscribed")
                case .awaitingFirstBody: fail(index, "closed by the server before the first body bytes")
                default: fail(index, "closed by the server before the response headers")
                }
                return
            }
            let now = monotonicNanoseconds()
            consume(index, buffer[..<count], at: now)
        }
    }

    private func consume(_ index: Int, _ bytes: ArraySlice<UInt8>, at now: UInt64) {
        var body = bytes
        if subscribers[index].phase == .awaitingHeaders {
            subscribers[index].head += bytes
            let head = subscribers[index].head
            guard let end = head.firstRange(of: Self.headEnd) else {
                if head.count > 16 * 1024 { fail(index, "response head over 16 KiB") }
                return
            }
            let lineEnd = head.firstRange(of: Array("\r\n".utf8)) ?? end
            let statusLine = String(decoding: head[..<lineEnd], as: UTF8.self)
            guard statusLine.hasPrefix("HTTP/1.1 200") else {
                fail(index, "status: \(statusLine)")
                return
            }
            body = head[(end + Self.headEnd.count)...]
            subscribers[index].head = []
            subscribers[index].phase = .awaitingFirstBody
        }
        guard !body.isEmpty else { return }
        let window = subscribers[index].tail + body
        if subscribers[index].phase == .awaitingFirstBody, window.firstRange(of: Self.eventStreamMarker) != nil {
            subscribers[index].phase = .ready
            subscribers[index].wasReady = true
            readyCount += 1
        }
        if currentWrite >= 0 {
            countSequencePatches(index, in: window, at: now)
        } else if subscribers[index].patchAt == nil, window.firstRange(of: Self.patchMarker) != nil {
            if selectSentAt == nil {
                patchesBeforeSelect += 1
            } else {
                subscribers[index].patchAt = now
                patchCount += 1
            }
        }
        subscribers[index].tail = Array(window.suffix(Self.keptTail))
    }

    /// Attributes the patches in `window` to the current write: the first is its patch, any
    /// other is extra. (The tail kept between reads is shorter than a marker, so no marker is
    /// counted twice.)
    private func countSequencePatches(_ index: Int, in window: [UInt8], at now: UInt64) {
        var from = 0
        while let found = window.firstRange(of: Self.patchMarker, from: from) {
            from = found + Self.patchMarker.count
            if selectSentAt == nil {
                strayPatches += 1
                continue
            }
            let slot = currentWrite * subscribers.count + index
            if arrivals[slot] == 0 {
                arrivals[slot] = now
                arrivedForCurrent += 1
            } else {
                extraPatches += 1
            }
        }
        from = 0
        while let found = window.firstRange(of: Self.resetMarker, from: from) {
            from = found + Self.resetMarker.count
            resetEvents += 1
        }
    }

    private func fail(_ index: Int, _ reason: String) {
        if currentWrite >= 0, subscribers[index].phase == .ready, index < subscribers.count,
            arrivals[currentWrite * subscribers.count + index] != 0
        {
            arrivedForCurrent -= 1  // it no longer counts among the open subscribers
        }
        if subscribers[index].phase == .ready {
            closedAfterReady += 1
            if subscribers[index].patchAt == nil { closedBeforePatch += 1 }
        }
        subscribers[index].phase = .closed
        if subscribers[index].failure == nil { subscribers[index].failure = reason }
        if subscribers[index].fd >= 0 {
            close(subscribers[index].fd)  // also removes it from the epoll set
            subscribers[index].fd = -1
        }
        subscribers[index].head = []
        subscribers[index].tail = []
    }

    // MARK: The select connection

    private func sendSelect() {
        while selectSent < selectRequest.count {
            if selectSentAt == nil { selectSentAt = monotonicNanoseconds() }
            let sent = selectRequest.withUnsafeBytes { bytes in
                send(selectFD, bytes.baseAddress! + selectSent, bytes.count - selectSent, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                finishSelect(failure: "send: \(errorText(errno))")
                return
            }
            selectSent += sent
        }
        register(selectFD, token: Self.selectToken, events: EPOLLIN.rawValue | EPOLLRDHUP.rawValue, op: EPOLL_CTL_MOD)
    }

    private func handleSelect(_ flags: UInt32) {
        guard selectFD >= 0 else { return }
        if selectSent < selectRequest.count {
            let code = socketError(selectFD)
            if code != 0 {
                finishSelect(failure: "connect: \(errorText(code))")
                return
            }
            if flags & EPOLLOUT.rawValue != 0 { sendSelect() }
        }
        guard flags & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue) != 0 else { return }
        while selectFD >= 0 {
            let count = buffer.withUnsafeMutableBytes { recv(selectFD, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                finishSelect(failure: "recv: \(errorText(errno))")
                return
            }
            if count == 0 {
                finishSelect(failure: selectResponse.isEmpty ? "closed by the server without a response" : nil)
                return
            }
            if selectResponse.isEmpty { selectAnsweredAt = monotonicNanoseconds() }
            selectResponse += buffer[..<count]
        }
    }

    private func finishSelect(failure: String?) {
        if selectFailure == nil, let failure { selectFailure = failure }
        if selectAnsweredAt == nil { selectAnsweredAt = monotonicNanoseconds() }
        close(selectFD)
        selectFD = -1
    }

    /// The select's status line, e.g. "HTTP/1.1 200 OK".
    var selectStatusLine: String? {
        guard !selectResponse.isEmpty else { return nil }
        let end = selectResponse.firstRange(of: Array("\r\n".utf8)) ?? selectResponse.count
        return String(decoding: selectResponse[..<end], as: UTF8.self)
    }
}
