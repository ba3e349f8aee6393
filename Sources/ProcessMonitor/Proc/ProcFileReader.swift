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
        directory = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
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
        var name = name
        return name.withUTF8 { path in
            withUnsafeTemporaryAllocation(of: CChar.self, capacity: path.count + 1) { cPath in
                for index in 0..<path.count { cPath[index] = CChar(bitPattern: path[index]) }
                cPath[path.count] = 0
                return withContents(ofPath: cPath.baseAddress!, body)
            }
        }
    }

    /// The contents of `pid`'s file `file` ("stat"), as ``withContents(of:_:)`` reads
    /// them, with the path made without allocating: this runs for every process on
    /// every refresh.
    package func withContents<Result>(ofProcess pid: Int32, _ file: StaticString, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 12 + file.utf8CodeUnitCount) { path in
            processPath(pid, file, into: path)
            return withContents(ofPath: path.baseAddress!, body)
        }
    }

    /// Writes "PID/FILE" and a NUL into `path` (12 + the file name's length or more).
    private func processPath(_ pid: Int32, _ file: StaticString, into path: UnsafeMutableBufferPointer<CChar>) {
        var length = 1
        var rest = pid / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        var value = pid
        for index in stride(from: length - 1, through: 0, by: -1) {
            path[index] = CChar(48 + value % 10)
            value /= 10
        }
        path[length] = CChar(UInt8(ascii: "/"))
        length += 1
        for offset in 0..<file.utf8CodeUnitCount {
            path[length] = CChar(bitPattern: file.utf8Start[offset])
            length += 1
        }
        path[length] = 0
    }

    /// Opens `pid`'s file `file` and keeps it open: ``withContents(ofDescriptor:_:)``
    /// then reads it again, as it is now, with one system call. (/proc generates a file's
    /// text at each read from its start; once its process is gone, a read fails.)
    package func open(process pid: Int32, _ file: StaticString) -> Int32? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 12 + file.utf8CodeUnitCount) { path in
            processPath(pid, file, into: path)
            let descriptor = openat(directory, path.baseAddress!, O_RDONLY | O_CLOEXEC)
            return descriptor >= 0 ? descriptor : nil
        }
    }

    /// The contents of an open file, read from its start; `nil` when the read fails.
    package func withContents<Result>(ofDescriptor descriptor: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        read(descriptor, body)
    }

    private func withContents<Result>(ofPath path: UnsafePointer<CChar>, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        let file = openat(directory, path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        return read(file, body)
    }

    private func read<Result>(_ file: Int32, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        var count = 0
        while true {
            if count == buffer.count { grow() }
            let room = buffer.count - count
            let read = pread(file, buffer.baseAddress! + count, room, off_t(count))
            if read < 0 {
                if errno == EINTR { continue }
                return nil
            }
            count += read
            // A read that does not fill the buffer got the whole file (regular files and
            // /proc's generated ones alike): one system call instead of two.
            if read < room { break }
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
