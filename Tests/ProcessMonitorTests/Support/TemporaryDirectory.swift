#if canImport(Glibc)
import Glibc
#endif

/// A directory of its own for a test, removed with everything in it when released.
final class TemporaryDirectory {
    /// Its absolute path.
    let path: String

    /// Why a file operation of the test failed.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        var template = Array("/tmp/process-monitor-tests.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed: errno \(errno)") }
        path = String(cString: made)
    }

    deinit {
        remove(path)
    }

    /// Writes `text` to `name` (a path inside the directory), making its directories.
    func write(_ text: String, to name: String) throws {
        var directory = path
        for component in name.split(separator: "/").dropLast() {
            directory += "/" + component
            mkdir(directory, 0o755)
        }
        let file = open(path + "/" + name, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard file >= 0 else { throw Failure(description: "cannot create \(name): errno \(errno)") }
        defer { close(file) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(file, $0.baseAddress, $0.count) }) == bytes.count else {
            throw Failure(description: "cannot write \(name)")
        }
    }

    /// Removes `path`, a file or a directory and everything in it.
    private func remove(_ path: String) {
        if let stream = opendir(path) {
            while let entry = readdir(stream) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                if name != "." && name != ".." { remove(path + "/" + name) }
            }
            closedir(stream)
            rmdir(path)
        } else {
            unlink(path)
        }
    }
}
