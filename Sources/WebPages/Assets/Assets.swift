import OnwardCore

/// The site's one stylesheet, one script and its icon, served by the server
/// from these constants. Pages link them with `?v=` and the version, so the
/// server can let browsers cache them for a year (`Cache-Control: public,
/// max-age=31536000, immutable`) and a new build is still picked up at once.
public enum Assets {
    public static let cssPath = "/assets/app.css"
    public static let jsPath = "/assets/app.js"
    public static let iconPath = "/assets/icon.svg"

    public static let cssContentType = "text/css; charset=utf-8"
    public static let jsContentType = "text/javascript; charset=utf-8"
    public static let iconContentType = "image/svg+xml"

    /// A hash of the assets' content: it changes whenever one of them does.
    public static let version: String = StableHash.hex(css + "\u{0}" + javascript + "\u{0}" + icon)

    public static var cssURL: String { cssPath + "?v=" + version }
    public static var jsURL: String { jsPath + "?v=" + version }
    public static var iconURL: String { iconPath + "?v=" + version }

    /// The favicon: the brand mark on its own.
    public static let icon = """
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="1" y="1" width="30" height="30" rx="9" fill="#0b57d0"/>\
    <path d="M9 16h13m-5.5-6 6 6-6 6" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>
    """
}
