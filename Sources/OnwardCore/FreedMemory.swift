import Foundation

/// Gives the system back the heap this process freed (glibc's `malloc_trim`; nothing elsewhere): glibc otherwise keeps
/// it, and a server that built a large index once would hold the memory its building used for as long as it runs.
public func returnFreedMemory() {
    #if canImport(Glibc)
    typealias Trim = @convention(c) (Int) -> Int32
    if let symbol = dlsym(nil, "malloc_trim") { _ = unsafeBitCast(symbol, to: Trim.self)(0) }
    #endif
}
