import Timetable

/// `Timetable.SourceLocation` under a name that does not clash with Swift Testing's
/// `SourceLocation` (the module name `Timetable` is shadowed by its type `Timetable`).
typealias FeedLocation = SourceLocation
