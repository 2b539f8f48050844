import Testing
import WebPages

@Suite("Language negotiation")
struct LanguageTests {
    @Test func readsTagsWeSpeak() {
        #expect(Language(tag: "id") == .id)
        #expect(Language(tag: "id-ID") == .id)
        #expect(Language(tag: "in") == .id)
        #expect(Language(tag: "ID_id") == .id)
        #expect(Language(tag: "en-GB") == .en)
        #expect(Language(tag: "fr") == nil)
        #expect(Language(tag: "") == nil)
    }

    @Test(arguments: [
        (nil, Language.en),
        ("", .en),
        ("id", .id),
        ("id-ID,id;q=0.9,en-US;q=0.8,en;q=0.7", .id),
        ("en-US,en;q=0.9,id;q=0.8", .en),
        ("fr-FR,fr;q=0.9,id;q=0.5", .id),
        ("fr, de", .en),
        ("en;q=0.2, id;q=0.8", .id),
        ("id;q=0, en;q=0.1", .en),
        ("in", .id),
        ("*", .en),
        ("de;q=1.0, ID ; Q=0.5", .id),
    ] as [(String?, Language)])
    func negotiatesAcceptLanguage(header: String?, expected: Language) {
        #expect(Language.negotiate(acceptLanguage: header) == expected)
    }

    @Test func explicitChoiceBeatsCookieBeatsHeader() {
        #expect(Language.resolve(query: "id", cookie: "en", acceptLanguage: "en") == .id)
        #expect(Language.resolve(query: nil, cookie: "id", acceptLanguage: "en") == .id)
        #expect(Language.resolve(query: "xx", cookie: nil, acceptLanguage: "id-ID") == .id)
        #expect(Language.resolve(query: nil, cookie: nil, acceptLanguage: nil) == .en)
    }

    @Test func themesFromCookiesAreValidated() {
        #expect(Theme(value: "dark") == .dark)
        #expect(Theme(value: " LIGHT ") == .light)
        #expect(Theme(value: "\"><script>") == .system)
        #expect(Theme(value: nil) == .system)
    }
}
