import OnwardCore

/// A source asked on demand whose answers feed the delay history (National Rail's Darwin: what each board said of each
/// train's call) and whose boards show how late a train usually is. The GTFS network does the same through its
/// realtime writer, which hears every poll rather than every question.
public protocol KeepsDelayHistory: Sendable {
    /// From now on, what each fresh answer says of each call goes to `observer` (the delay history keeper).
    func observeDelays(_ observer: @escaping @Sendable ([DelayObservation]) -> Void)
    /// The history its boards and services show from the next request.
    func serve(history: DelayHistoryBook)
}
