// Reading /proc is most of a refresh's cost, so files are read with plain system calls
// into one reusable buffer, relative to an open directory (no path resolution from the
// root for each of hundreds of files), and parsed as bytes without making Strings.

#if canImport(Glibc)
import Glibc
#endif

/// Why a system file could not be read.
package struct ProcError: Error, CustomStringConvertible, Equatable {
    /// What failed, naming the file, and what to do.
    package let description: String

    /// Creates an error with its message.
    package init(_ description: String) {
        self.description = description
    }
}

/// Reads files of one directory (a `/proc`, live or recorded) into a reused buffer.
package final class ProcFileReader {
    /// The directory read, as given.
    package let path: String
    private let directory: Int32
    private var buffer: UnsafeMutableRawBufferPointer

    /// Opens `path`, a directory laid out as `/proc` is.
    package init(path: String) throws(ProcError) {
        self.path = path
        directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else {
            throw ProcError("cannot open \(path): \(String(cString: strerror(errno))); pass --root a directory that holds proc/ (a recorded /proc), or leave it out to read this machine's")
        }
        buffer = .allocate(byteCount: 16 * 1024, alignment: 1)
    }

    deinit {
        close(directory)
        buffer.deallocate()
    }

    /// The contents of `name` (relative to the directory), or `nil` when it cannot be
    /// read (a process that ended since it was listed). `body` sees the bytes only while
    /// it runs.
    package func withContents<Result>(of name: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        let file = openat(directory, name, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var count = 0
        while true {
            if count == buffer.count { grow() }
            let read = Glibc.read(file, buffer.baseAddress! + count, buffer.count - count)
            if read < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if read == 0 { break }
            count += read
        }
        return body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// The contents of `name`, or an error naming the file for a file the monitor
    /// cannot do without.
    package func require<Result>(_ name: String, _ body: (UnsafeRawBufferPointer) -> Result) throws(ProcError) -> Result {
        guard let result = withContents(of: name, body) else {
            throw ProcError("cannot read \(path)/\(name): \(String(cString: strerror(errno))); a /proc root needs stat, meminfo, loadavg and uptime")
        }
        return result
    }

    /// The names of the directory's entries that are numbers: the processes' ids.
    package func processIDs() -> [Int32] {
        let handle = openat(directory, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard handle >= 0, let stream = fdopendir(handle) else { return [] }
        defer { closedir(stream) }
        var ids: [Int32] = []
        while let entry = readdir(stream) {
            let id = withUnsafeBytes(of: entry.pointee.d_name) { name -> Int32? in
                var value: Int32 = 0
                var digits = 0
                for byte in name {
                    if byte == 0 { break }
                    guard byte >= 48 && byte <= 57, digits < 9 else { return nil }
                    value = value * 10 + Int32(byte - 48)
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            if let id { ids.append(id) }
        }
        ids.sort()
        return ids
    }

    private func grow() {
        let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 1)
        larger.copyMemory(from: UnsafeRawBufferPointer(buffer))
        buffer.deallocate()
        buffer = larger
    }
}
