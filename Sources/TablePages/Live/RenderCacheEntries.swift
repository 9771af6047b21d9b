/// The entries of a ``RenderCache`` in a doubly linked list over an array, most recently used
/// first, so a lookup, a store and an eviction each cost O(1) under the lock, and dropping a
/// variant costs O(its bodies).
struct RenderCacheEntries {
    struct Slot {
        var key: RenderCache.Key?
        var stamp: RenderCache.Stamp
        var body: [UInt8]
        var cost: Int
        var newer = -1
        var older = -1
    }

    private(set) var slots: [Slot] = []
    private(set) var free: [Int] = []
    private var index: [RenderCache.Key: Int] = [:]
    // The stamp each variant's stored bodies were rendered at, and their slots.
    private var variants: [PageVariant: (stamp: RenderCache.Stamp, slots: Set<Int>)] = [:]
    private var newest = -1
    private var oldest = -1
    private(set) var bytes = 0

    mutating func body(for key: RenderCache.Key, stamp: RenderCache.Stamp) -> [UInt8]? {
        guard let slot = index[key], slots[slot].stamp == stamp else { return nil }
        moveToFront(slot)
        return slots[slot].body
    }

    mutating func store(_ body: [UInt8], for key: RenderCache.Key, stamp: RenderCache.Stamp, cost: Int, byteLimit: Int) {
        if let stored = variants[key.variant], stored.stamp != stamp {
            // Only the newest state is worth keeping; a late store of an older one is ignored.
            guard Self.isNewer(stamp, than: stored.stamp) else { return }
            removeAll(of: key.variant)
        }
        if let slot = index[key] { remove(slot) }
        while bytes + cost > byteLimit, oldest >= 0 { remove(oldest) }
        let slot: Int
        let entry = Slot(key: key, stamp: stamp, body: body, cost: cost)
        if let reused = free.popLast() {
            slot = reused
            slots[slot] = entry
        } else {
            slot = slots.count
            slots.append(entry)
        }
        index[key] = slot
        variants[key.variant, default: (stamp, [])].slots.insert(slot)
        bytes += cost
        linkAtFront(slot)
    }

    mutating func removeAll(of variant: PageVariant) {
        for slot in variants[variant]?.slots ?? [] { remove(slot) }
    }

    /// Generations only grow (a re-read and a new host of the variant each take a new one), and
    /// within one generation a host's versions only grow (see ``PageVersions``); versions alone do
    /// not order states, since a host may number them by a database's clock or by its own ids.
    private static func isNewer(_ stamp: RenderCache.Stamp, than other: RenderCache.Stamp) -> Bool {
        (stamp.generation, stamp.version) > (other.generation, other.version)
    }

    private mutating func remove(_ slot: Int) {
        guard let key = slots[slot].key else { return }
        unlink(slot)
        index[key] = nil
        variants[key.variant]?.slots.remove(slot)
        if variants[key.variant]?.slots.isEmpty == true { variants[key.variant] = nil }
        bytes -= slots[slot].cost
        // The body's memory is released now, not when the slot is reused.
        slots[slot] = Slot(key: nil, stamp: slots[slot].stamp, body: [], cost: 0)
        free.append(slot)
    }

    private mutating func moveToFront(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAtFront(slot)
    }

    private mutating func linkAtFront(_ slot: Int) {
        slots[slot].older = newest
        slots[slot].newer = -1
        if newest >= 0 { slots[newest].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (slots[slot].newer, slots[slot].older)
        if newer >= 0 { slots[newer].older = older } else { newest = older }
        if older >= 0 { slots[older].newer = newer } else { oldest = newer }
        slots[slot].newer = -1
        slots[slot].older = -1
    }
}
