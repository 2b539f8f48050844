/// What makes the web app installable (a phone's "Add to home screen" opens it standalone, like an app): the web app
/// manifest and its icons. The icons are the brand mark (`Assets.icon`) drawn by Chromium at 192 and 512 pixels
/// (a headless screenshot of the SVG at that size on a transparent background).
extension Assets {
    public static let manifestPath = "/manifest.webmanifest"
    public static let manifestContentType = "application/manifest+json"
    public static let themeColor = "#0b57d0"

    public static let icons: [File] = [
        File(path: "/assets/icon-192.png", contentType: "image/png", bytes: PackageResources.icon_192_png),
        File(path: "/assets/icon-512.png", contentType: "image/png", bytes: PackageResources.icon_512_png),
    ]

    /// Opens on the home page, standalone, in the brand's colour. Names are the product's, in every language.
    public static let manifest = """
    {
      "name": "Onward",
      "short_name": "Onward",
      "description": "Live departure boards, journeys and your saved routes; their timetables stay on the phone with no signal.",
      "start_url": "/",
      "scope": "/",
      "display": "standalone",
      "background_color": "#ffffff",
      "theme_color": "\(themeColor)",
      "icons": [
        {"src": "/assets/icon-192.png", "sizes": "192x192", "type": "image/png"},
        {"src": "/assets/icon-512.png", "sizes": "512x512", "type": "image/png"},
        {"src": "\(iconPath)", "sizes": "any", "type": "\(iconContentType)"}
      ]
    }
    """
}
