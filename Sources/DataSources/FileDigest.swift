import Crypto
import Foundation
import OnwardCore

/// SHA-256 of a file, read in chunks (a national feed's zip is hundreds of megabytes), or of a
/// folder: each file's name and contents in name order. Equal to `Poller.digest` of the same bytes.
public enum FileDigest {
    public static func digest(of path: String) throws(SourceError) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SourceError(.notFound, "no such file or folder: \(path)")
        }
        var hasher = SHA256()
        if isDirectory.boolValue {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
            for name in names {
                hasher.update(data: Data(name.utf8))
                try add(URL(fileURLWithPath: path).appendingPathComponent(name).path, to: &hasher)
            }
        } else {
            try add(path, to: &hasher)
        }
        return hex(hasher.finalize())
    }

    /// A digest in lower-case hex, as every feed version is written.
    static func hex(_ digest: some Sequence<UInt8>) -> String { digest.map { String(format: "%02x", $0) }.joined() }

    private static func add(_ path: String, to hasher: inout SHA256) throws(SourceError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw SourceError(.unreadable, "cannot read \(path)") }
        defer { try? handle.close() }
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        } catch {
            throw SourceError(.unreadable, "cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// What tells a file or folder changed without reading it: the latest modification date of
    /// it (or of any file in it) and the total size.
    public static func signature(of path: String) -> String? {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        let paths = isDirectory.boolValue
            ? ((try? manager.contentsOfDirectory(atPath: path)) ?? []).map { URL(fileURLWithPath: path).appendingPathComponent($0).path }
            : [path]
        var latest = 0.0, size: Int64 = 0
        for p in paths {
            guard let a = try? manager.attributesOfItem(atPath: p) else { continue }
            latest = max(latest, (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
            size += (a[.size] as? NSNumber)?.int64Value ?? 0
        }
        return "\(latest)/\(size)/\(paths.count)"
    }
}
