#if canImport(Glibc)
import Glibc
#endif

/// Names users by their ids, from a passwd file, remembering each name found.
package final class UserNames {
    private var names: [Int: String] = [:]
    private let askSystem: Bool

    /// The users of the file `passwd` of `directory` (absent: none). With `askSystem`,
    /// an id the file does not name is looked up through the system (`getpwuid_r`, which
    /// also asks network directories); otherwise it shows as its number.
    package init(directory: String, askSystem: Bool) {
        self.askSystem = askSystem
        if let reader = try? ProcFileReader(path: directory) {
            names = reader.withContents(of: "passwd", Self.parse) ?? [:]
        }
    }

    /// The name of user `id`: its passwd name, or the number.
    package func name(of id: Int) -> String {
        if let name = names[id] { return name }
        let name = (askSystem ? Self.systemName(of: id) : nil) ?? String(id)
        names[id] = name
        return name
    }

    /// The names of a passwd file's lines ("root:x:0:0:root:/root:/bin/bash"), by id.
    package static func parse(_ bytes: UnsafeRawBufferPointer) -> [Int: String] {
        var names: [Int: String] = [:]
        for line in bytes.split(separator: 10) {
            let fields = line.split(separator: 58, maxSplits: 3, omittingEmptySubsequences: false)   // ":"
            guard fields.count >= 3, let id = Int(String(decoding: fields[2], as: UTF8.self)) else { continue }
            let name = String(decoding: fields[0], as: UTF8.self)
            if names[id] == nil { names[id] = name }   // the first line for an id wins, as for getpwuid
        }
        return names
    }

    private static func systemName(of id: Int) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid_t(truncatingIfNeeded: id), &entry, &buffer, buffer.count, &result) == 0,
              result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }
}
