import Testing

/// One check of a contract suite: a name and what it does to a new, empty repository of one driver.
public struct ContractCheck<Repository>: Sendable, CustomTestStringConvertible {
    public let name: String
    let body: @Sendable (Repository) async throws -> Void

    public init(name: String, _ body: @escaping @Sendable (Repository) async throws -> Void) {
        self.name = name
        self.body = body
    }

    public func run(on repository: Repository) async throws { try await body(repository) }
    public var testDescription: String { name }
}
