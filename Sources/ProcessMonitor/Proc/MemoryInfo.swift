/// The figures of `/proc/meminfo` the monitor shows, in KiB.
package struct MemoryInfo: Hashable, Sendable {
    /// `MemTotal`.
    package var totalKiB = 0
    /// `MemFree`.
    package var freeKiB = 0
    /// `Buffers`.
    package var buffersKiB = 0
    /// `Cached` plus `SReclaimable` less `Shmem`: the page cache that could be dropped,
    /// as `free` and `htop` count it.
    package var cacheKiB = 0
    /// `SwapTotal`.
    package var swapTotalKiB = 0
    /// `SwapFree`.
    package var swapFreeKiB = 0

    /// Creates figures.
    package init(totalKiB: Int = 0, freeKiB: Int = 0, buffersKiB: Int = 0, cacheKiB: Int = 0, swapTotalKiB: Int = 0, swapFreeKiB: Int = 0) {
        self.totalKiB = totalKiB
        self.freeKiB = freeKiB
        self.buffersKiB = buffersKiB
        self.cacheKiB = cacheKiB
        self.swapTotalKiB = swapTotalKiB
        self.swapFreeKiB = swapFreeKiB
    }

    /// Memory in use by programs: what is neither free, nor buffers, nor cache.
    package var usedKiB: Int { max(0, totalKiB - freeKiB - buffersKiB - cacheKiB) }

    /// Swap in use.
    package var swapUsedKiB: Int { max(0, swapTotalKiB - swapFreeKiB) }

    /// Parses `/proc/meminfo` ("MemTotal:       24684084 kB" lines); `nil` without
    /// `MemTotal`.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> MemoryInfo? {
        var scanner = ByteScanner(bytes)
        var info = MemoryInfo()
        var cached = 0, reclaimable = 0, shared = 0
        while !scanner.isAtEnd {
            if scanner.consume("MemTotal:") { info.totalKiB = scanner.integer() ?? 0 }
            else if scanner.consume("MemFree:") { info.freeKiB = scanner.integer() ?? 0 }
            else if scanner.consume("Buffers:") { info.buffersKiB = scanner.integer() ?? 0 }
            else if scanner.consume("Cached:") { cached = scanner.integer() ?? 0 }
            else if scanner.consume("SReclaimable:") { reclaimable = scanner.integer() ?? 0 }
            else if scanner.consume("Shmem:") { shared = scanner.integer() ?? 0 }
            else if scanner.consume("SwapTotal:") { info.swapTotalKiB = scanner.integer() ?? 0 }
            else if scanner.consume("SwapFree:") { info.swapFreeKiB = scanner.integer() ?? 0 }
            scanner.skipLine()
        }
        guard info.totalKiB > 0 else { return nil }
        info.cacheKiB = max(0, cached + reclaimable - shared)
        return info
    }
}
