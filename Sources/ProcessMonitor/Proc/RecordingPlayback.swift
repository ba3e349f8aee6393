#if canImport(Glibc)
import Glibc
#endif

/// Plays a recording's samples in one directory, as /proc shows a running system: each
/// sample's files are written over the previous one's, in place (same files, new
/// contents), so that a reader that keeps files open reads the new sample through them.
///
/// Used by the refresh benchmark, and by the tests of the reader's open files.
package final class RecordingPlayback {
    /// The directory played in, a system root (`proc/`, `etc/`).
    package let root: String

    /// A new directory under `/tmp`, holding nothing yet.
    package init() throws(ProcError) {
        var template = Array("/tmp/bindings-demo-playback.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw ProcError("cannot make a directory in /tmp: \(String(cString: strerror(errno)))")
        }
        root = String(cString: made)
    }

    deinit {
        Self.remove(root)
    }

    /// Makes the directory hold the sample at `sample` (a recorded root): its files are
    /// written over the ones there, and the process directories it does not have are
    /// removed.
    package func play(_ sample: String) throws(ProcError) {
        try Self.copy(from: sample, to: root)
        for name in Self.entries(of: root + "/proc") where name.allSatisfy(\.isNumber) {
            if !Self.exists(sample + "/proc/" + name) { Self.remove(root + "/proc/" + name) }
        }
    }

    private static func copy(from source: String, to destination: String) throws(ProcError) {
        mkdir(destination, 0o755)
        for name in entries(of: source) {
            let from = source + "/" + name
            let to = destination + "/" + name
            if isDirectory(from) {
                try copy(from: from, to: to)
            } else {
                try copyFile(from: from, to: to)
            }
        }
    }

    private static func copyFile(from source: String, to destination: String) throws(ProcError) {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ProcError("cannot read \(source): \(String(cString: strerror(errno)))") }
        defer { close(input) }
        // O_TRUNC keeps the file (its inode): a descriptor open on it reads the new text.
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw ProcError("cannot write \(destination): \(String(cString: strerror(errno)))") }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            guard FileOutput.write(buffer[0..<count], to: output) else {
                throw ProcError("cannot write \(destination): \(String(cString: strerror(errno)))")
            }
        }
    }

    private static func entries(of directory: String) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    private static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    private static func remove(_ path: String) {
        if isDirectory(path) {
            for name in entries(of: path) { remove(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
