import Foundation
import OnwardCore

/// What a person shows others beside their display name (which lives with the account): a short
/// bio and a photo. The photo is a small JPEG or PNG kept as bytes, checked by its signature, so a
/// page never loads an image from an address someone typed (no tracking pixels, no mixed content).
public struct Profile: Sendable, Hashable, Codable {
    public var person: String
    public var bio: String
    public var photo: Photo?
    /// Where broadcasts reach the person by Web Push: the browser's subscription as JSON, read by the server only.
    public var push: Data?

    public init(person: String, bio: String = "", photo: Photo? = nil, push: Data? = nil) {
        self.person = person; self.bio = bio; self.photo = photo; self.push = push
    }

    public static let maxBioLength = 280

    public static func bioProblem(_ bio: String) -> String? {
        bio.count > maxBioLength ? "bio must be at most \(maxBioLength) characters" : nil
    }

    public struct Photo: Sendable, Hashable, Codable {
        public var bytes: Data
        /// `image/jpeg` or `image/png`, from the bytes' signature.
        public var mediaType: String

        public static let maxBytes = 200 * 1024

        /// The photo, or why these bytes are not one.
        public static func checked(_ bytes: Data) -> Result<Photo, PhotoProblem> {
            guard !bytes.isEmpty else { return .failure(.init("photo is empty")) }
            guard bytes.count <= maxBytes else { return .failure(.init("photo must be at most \(maxBytes / 1024) KB")) }
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .success(Photo(bytes: bytes, mediaType: "image/jpeg")) }
            if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .success(Photo(bytes: bytes, mediaType: "image/png")) }
            return .failure(.init("photo must be a JPEG or PNG image"))
        }
    }

    public struct PhotoProblem: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
        init(_ d: String) { description = d }
    }
}

/// A host's notification to everyone on a trip: shown in the app, and sent by Web Push and Telegram where each member has them.
public struct Broadcast: Sendable, Hashable, Codable {
    public var id: String
    public var tripId: String
    public var host: String
    public var text: String
    public var at: Instant

    public init(id: String, tripId: String, host: String, text: String, at: Instant) {
        self.id = id; self.tripId = tripId; self.host = host; self.text = text; self.at = at
    }

    public static let maxLength = 500
}
