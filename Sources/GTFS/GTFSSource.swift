import COnwardZlib
import Foundation
import Timetable
import ZIPFoundation

/// Where a feed's files come from: a zip, a folder, or text in memory.
public protocol GTFSSource {
    /// A short name for messages and for the feed's ID prefix ("halifax-transit-2025-08").
    var name: String { get }
    func contains(_ file: String) -> Bool
    /// Uncompressed size of a file, if known, for progress.
    func size(of file: String) -> Int?
    /// Streams a file's bytes in chunks. May be called from several threads at once for different files.
    func read(_ file: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws
    /// Hands `body` the whole file's bytes at once where the source holds them so (a mapped file, text in memory), so
    /// that a big file can be parsed in pieces on several cores; nil where it can only stream them (a zip, inflated in
    /// order), or when the file is missing.
    func withBytes<R>(_ file: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R?
}

extension GTFSSource {
    public func withBytes<R>(_ file: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? { nil }
}

/// A feed in a zip archive. Files may sit at the top or inside one folder.
public struct ZipGTFSSource: GTFSSource, @unchecked Sendable {
    public let name: String
    let url: URL
    /// File name → path inside the zip, and sizes; each read opens its own archive handle so files can be read in parallel.
    let paths: [String: String]
    let sizes: [String: Int]

    public init(url: URL) throws(FeedError) {
        self.url = url
        self.name = url.deletingPathExtension().lastPathComponent
        let archive: Archive
        do {
            archive = try Archive(url: url, accessMode: .read)
        } catch Archive.ArchiveError.unreadableArchive {
            throw FeedError(code: "unreadable", location: SourceLocation(file: url.path), message: "cannot be opened for reading")
        } catch {
            // ZIPFoundation's case names (missingEndOfCentralDirectoryRecord, …) mean nothing to a person.
            throw FeedError(code: "unreadable", location: SourceLocation(file: url.path), message: "not a zip file (or it is damaged)")
        }
        var paths: [String: String] = [:], sizes: [String: Int] = [:]
        for entry in archive where entry.type == .file {
            let file = (entry.path as NSString).lastPathComponent
            // A feed at the top of the zip wins over a copy in a folder.
            if paths[file] == nil || !entry.path.contains("/") {
                paths[file] = entry.path
                sizes[file] = Int(entry.uncompressedSize)
            }
        }
        self.paths = paths
        self.sizes = sizes
    }

    public func contains(_ file: String) -> Bool { paths[file] != nil }
    public func size(of file: String) -> Int? { sizes[file] }

    public func read(_ file: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let path = paths[file] else { return }
        // A big file is inflated on a thread of its own while the caller parses what is ready:
        // on two cores a million-row stop_times.txt then costs about its parsing alone, where
        // inflating first (a third of the import) made the two add up.
        guard (sizes[file] ?? 0) >= InflatingPipe.threshold else { return try extract(file, path: path) { try $0.withUnsafeBytes(chunk) } }
        let pipe = InflatingPipe()
        let source = self
        let producer = Thread {
            do {
                try source.extract(file, path: path) { data in try pipe.put(data) }
                pipe.finish(nil)
            } catch {
                pipe.finish(error)
            }
        }
        producer.start()
        defer { pipe.abandon() }  // a parse error stops the inflating too; waits for the thread to let go
        while let data = try pipe.take() { try data.withUnsafeBytes(chunk) }
    }

    /// Inflates one entry in chunks, checking its checksum.
    private func extract(_ file: String, path: String, _ chunk: (Data) throws -> Void) throws {
        let archive = try Archive(url: url, accessMode: .read)
        guard let entry = archive[path] else { return }
        // ZIPFoundation's CRC-32 on Linux is a byte-at-a-time loop that took 14% of an import;
        // zlib's is several times faster, so we check the entry's checksum ourselves.
        var crc: UInt = 0
        try withoutActuallyEscaping(chunk) { chunk in
            _ = try archive.extract(entry, bufferSize: 1 << 18, skipCRC32: true) { data in
                data.withUnsafeBytes { bytes in
                    crc = crc32(crc, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
                }
                try chunk(data)
            }
        }
        guard UInt32(truncatingIfNeeded: crc) == entry.checksum else {
            throw FeedError(code: "unreadable", location: SourceLocation(file: file),
                            message: "the zip entry is corrupt (its CRC-32 does not match)")
        }
    }
}

/// Chunks handed from the inflating thread to the parsing one, a few at a time (bounded, so a
/// slow parser does not let a whole file pile up in memory).
final class InflatingPipe: @unchecked Sendable {
    /// Files smaller than this are inflated where they are read: a thread costs more than it saves.
    static let threshold = 8 << 20
    static let capacity = 8

    private let condition = NSCondition()
    private var chunks: [Data] = []
    private var finished = false
    private var failure: (any Error)?
    private var abandoned = false

    struct Abandoned: Error {}

    /// Waits for room; throws when the reader has gone, which stops the inflating.
    func put(_ data: Data) throws {
        condition.lock()
        defer { condition.unlock() }
        while chunks.count >= Self.capacity && !abandoned { condition.wait() }
        if abandoned { throw Abandoned() }
        chunks.append(data)
        condition.broadcast()
    }

    /// The end of the file, or the error that stopped it.
    func finish(_ error: (any Error)?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The next chunk in order, nil at the end; rethrows the inflating's error.
    func take() throws -> Data? {
        condition.lock()
        defer { condition.unlock() }
        while chunks.isEmpty && !finished { condition.wait() }
        if !chunks.isEmpty {
            let next = chunks.removeFirst()
            condition.broadcast()
            return next
        }
        if let failure { throw failure }
        return nil
    }

    /// The reader is done (or failed): the inflating thread stops at its next chunk; returns once it has.
    func abandon() {
        condition.lock()
        abandoned = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}

/// A feed unpacked into a folder.
public struct DirectoryGTFSSource: GTFSSource, Sendable {
    public let name: String
    let url: URL

    public init(url: URL) {
        self.url = url
        self.name = url.lastPathComponent
    }

    public func contains(_ file: String) -> Bool { FileManager.default.fileExists(atPath: url.appendingPathComponent(file).path) }
    public func size(of file: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(file).path)[.size] as? Int) ?? nil
    }

    public func read(_ file: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        // Handed on in 1 MB pieces, as before, for progress.
        _ = try withBytes(file) { raw in
            var offset = 0
            while offset < raw.count {
                let end = min(offset + (1 << 20), raw.count)
                try chunk(UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
                offset = end
            }
        }
    }

    public func withBytes<R>(_ file: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        // Mapped, not read: the kernel's copying into a buffer was a tenth of a big import (perf).
        let data = try Data(contentsOf: url.appendingPathComponent(file), options: .alwaysMapped)
        return try data.withUnsafeBytes(body)
    }
}

/// A feed given as text, for tests and for apps that build a feed in code.
public struct InMemoryGTFSSource: GTFSSource, Sendable {
    public let name: String
    public var files: [String: String]

    public init(name: String, files: [String: String]) {
        self.name = name
        self.files = files
    }

    public func contains(_ file: String) -> Bool { files[file] != nil }
    public func size(of file: String) -> Int? { files[file]?.utf8.count }

    public func read(_ file: String, _ chunk: (UnsafeRawBufferPointer) throws -> Void) throws {
        _ = try withBytes(file, chunk)
    }

    public func withBytes<R>(_ file: String, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R? {
        guard let text = files[file] else { return nil }
        var copy = text
        return try copy.withUTF8 { try body(UnsafeRawBufferPointer($0)) }
    }
}
