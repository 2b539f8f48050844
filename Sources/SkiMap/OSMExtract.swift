import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The nodes and ways of an OpenStreetMap XML extract (OSM XML 0.6), with their tags. Relations are not read.
public struct OSMExtract: Sendable {
    public struct Node: Sendable, Hashable {
        public var id: Int64
        public var latitude: Double
        public var longitude: Double
        public var tags: [String: String]
    }

    public struct Way: Sendable, Hashable {
        public var id: Int64
        public var nodes: [Int64]
        public var tags: [String: String]
    }

    public var nodes: [Int64: Node]
    public var ways: [Way]

    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Reads an OSM XML document. Foundation's XMLParser (libxml2) keeps global state, so one
    /// document is read at a time; extracts of a ski area are small (a few hundred kilobytes).
    public init(xml data: Data) throws(ReadError) {
        let reader = Reader()
        let ok = Self.lock.withLock { () -> Bool in
            // From a stream, not `XMLParser(data:)`: on Linux that one fails at the very end of a large
            // document (13.9 MB of Andorra: "error 1" past the last line), while a stream of the same bytes parses.
            let parser = XMLParser(stream: InputStream(data: data))
            parser.delegate = reader
            return parser.parse()
        }
        if let problem = reader.problem { throw ReadError(description: problem) }
        guard ok else { throw ReadError(description: "not an OSM XML document (line \(reader.line)): \(reader.parseError ?? "unreadable")") }
        guard reader.sawRoot else { throw ReadError(description: "not an OSM XML document: no <osm> element") }
        nodes = reader.nodes
        ways = reader.ways
    }

    private static let lock = NSLock()

    private final class Reader: NSObject, XMLParserDelegate {
        var nodes: [Int64: Node] = [:]
        var ways: [Way] = []
        var problem: String?
        var parseError: String?
        var line = 0
        var sawRoot = false
        private var node: Node?
        private var way: Way?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes a: [String: String] = [:]) {
            switch name {
            case "osm": sawRoot = true
            case "node":
                guard let id = a["id"].flatMap(Int64.init), let lat = a["lat"].flatMap(Double.init), let lon = a["lon"].flatMap(Double.init),
                      (-90...90).contains(lat), (-180...180).contains(lon) else {
                    fail(parser, "a node without a valid id, lat and lon")
                    return
                }
                node = Node(id: id, latitude: lat, longitude: lon, tags: [:])
            case "way":
                guard let id = a["id"].flatMap(Int64.init) else { fail(parser, "a way without a valid id"); return }
                way = Way(id: id, nodes: [], tags: [:])
            case "nd":
                guard let ref = a["ref"].flatMap(Int64.init) else { fail(parser, "a way's nd without a valid ref"); return }
                way?.nodes.append(ref)
            case "tag":
                guard let k = a["k"], let v = a["v"] else { return }
                if node != nil { node?.tags[k] = v } else if way != nil { way?.tags[k] = v }
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "node": if let n = node { nodes[n.id] = n }; node = nil
            case "way": if let w = way { ways.append(w) }; way = nil
            default: break
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
            line = parser.lineNumber
            parseError = parseError ?? error.localizedDescription
        }

        private func fail(_ parser: XMLParser, _ what: String) {
            problem = problem ?? "line \(parser.lineNumber): \(what)"
            parser.abortParsing()
        }
    }
}
