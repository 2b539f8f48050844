import Foundation

extension Duration {
    /// The duration in seconds as a floating-point value, for APIs (URLRequest,
    /// backoff arithmetic) that work in `TimeInterval`.
    var inSeconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }
}
